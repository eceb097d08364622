// Sealed means unreadable without a key that is not in the file: an exported test and a bundle of a seeded mock open
// with nothing they hold (the seed, the ids, any string in them), only with the seal key given to the mock; with it
// every credential replays (a transfer with the configured admin key answers 200 as on the original); without it the
// replay says which sealed values it cannot open and how to give the key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDecipheriv, createHash } from 'node:crypto';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { Sealer, sealedFields } from '../../src/control/sealing.js';
import { ValidationError } from '../../src/errors.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { SEAL_KEY, replayDir } from '../helpers/replay-run.js';

const SEED = 'ci-seed';
const ADMIN = 'configured-admin-key-7f3e';
const BROKER = 'configured-broker-secret-91ac';
const P = DEMO.projects.support;
const TRANSFER = `/api/v3/projects/${DEMO.projects.sandbox}/transfer`;
const dir = replayDir();
test.after(() => dir.remove());

/** A seeded mock started with an admin key and broker secret, after a session that sends every kind of credential. */
async function original(sealKey?: string): Promise<MockApp> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: SEED, sealKey, adminKey: ADMIN, brokerSecret: BROKER });
  mock.control.startSession();
  const token = await mock.fetch('/api/v3/auth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier }),
  });
  const minted = (await token.json()) as { access_token: string };
  assert.is((await mock.fetch(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`, { headers: bearer(minted.access_token) })).status, 200);
  assert.is((await mock.fetch(`/api/v3/projects/${P}/connections/crm`, { headers: { 'X-Admin-Key': ADMIN } })).status, 200);
  const event = JSON.stringify({
    event_id: 'evt-1',
    event_type: 'connection.refreshed',
    connection_resource_id: 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0',
    occurred_at: '2026-11-20T12:00:00Z',
  });
  const signed = signBrokerPayload(event, BROKER);
  await mock.fetch('/api/v3/webhooks/broker', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': signed.signature },
    body: event,
  });
  return mock;
}

const SEALED = /\{"\$sealed":"(v1\.[A-Za-z0-9_-]+)"\}/g;

/** Every string literal of a JSON-bearing text, unescaped: what an attacker holding the file can try as a key. */
function stringsOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)) {
    try {
      out.add(JSON.parse(`"${m[1]}"`) as string);
    } catch {
      out.add(m[1]);
    }
  }
  return [...out];
}

/** Opens `sealed` with a raw 32-byte key (AES-256-GCM as sealed: IV, tag, body); undefined when it does not open. */
function openWith(key: Buffer, sealed: string): unknown {
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  try {
    const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Tries every candidate under every way a key could be made of it (the seal key's, a seed's, the string's own hash or bytes). */
function opened(text: string, candidates: string[]): string[] {
  const sealed = [...new Set([...text.matchAll(SEALED)].map((m) => m[1]))];
  const found: string[] = [];
  for (const c of candidates) {
    // As a seal key, as a seed once derived the key, and as a key itself (its hash, or its bytes when 32 long).
    const keys = [createHash('sha256').update(`seal:${c}`).digest(), createHash('sha256').update(c).digest()];
    if (Buffer.byteLength(c) === 32) keys.push(Buffer.from(c));
    const sealer = new Sealer(c);
    for (const s of sealed) {
      if (sealer.unseal({ $sealed: s }) || keys.some((k) => openWith(k, s) !== undefined)) found.push(`${c} opens ${s.slice(0, 20)}…`);
    }
  }
  return found;
}

test('an exported test and a bundle of a seeded mock: no string they hold (the seed, ids, any value) opens any sealed value', async () => {
  for (const sealKey of [undefined, SEAL_KEY]) {
    const mock = await original(sealKey);
    const file = await mock.control.exportTest();
    const bundle = JSON.stringify(await mock.control.exportBundle());
    // The bundle's sealed values are the test file's too (it holds one): its own strings are tried once, with a key.
    for (const [name, text] of sealKey === undefined
      ? [['exported test', file]]
      : [
          ['exported test', file],
          ['bundle', bundle],
        ]) {
      const sealedCount = [...text.matchAll(SEALED)].length;
      assert.ok(sealedCount >= 10, `${name}: ${sealedCount} sealed values`);
      // A bundle shows tokens and codes as GET /_mock/state does; an exported test seals them too.
      const tokens = name === 'bundle' ? [] : [DEMO.tokens.owner, DEMO.authorizationCode];
      for (const secret of [ADMIN, BROKER, DEMO.chatSecret, 'sk_live_demo_9f8e7d6c5b4a', ...tokens]) {
        assert.not.ok(text.includes(secret), `${name} holds ${secret} in clear`);
      }
      const candidates = [...stringsOf(text), SEED, String(sealKey === undefined)];
      assert.ok(candidates.includes(SEED) && candidates.length > 200, `${name}: ${candidates.length} candidates`);
      assert.equal(opened(text, candidates), [], name);
    }
    // The seed alone: a mock built with it opens nothing.
    const bySeed = await createApp({ storage: 'memory', seed: SEED });
    for (const m of file.matchAll(SEALED)) assert.throws(() => bySeed.control.unseal({ $sealed: m[1] }), /not sealed with this mock's key/);
    await bySeed.close();
    await mock.close();
  }
});

test('the bundle carries the configured admin key and broker secret, sealed: with the seal key a fork answers as the original', async () => {
  const mock = await original(SEAL_KEY);
  const bundle = await mock.control.exportBundle();
  assert.equal(sealedFields(bundle), ['admin_key (2)', 'broker_secret (2)', 'webhook_secret (2)', 'tool_arguments (14)']);
  const fork = await createApp({ storage: 'memory', bundle, sealKey: SEAL_KEY });
  for (const key of [ADMIN, 'demo-admin-key']) {
    const send = (m: MockApp) =>
      m.fetch(TRANSFER, {
        method: 'POST',
        headers: { 'X-Admin-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ workspace_id: DEMO.workspaces.globex }),
      });
    const [a, b] = [await send(mock), await send(fork)];
    assert.is(a.status, key === ADMIN ? 200 : 401, key);
    assert.is(b.status, a.status, key);
    assert.equal(await b.json(), await a.json());
  }
  // The same seed and key write the same bytes; another key writes other sealed values.
  const again = await original(SEAL_KEY);
  const sameKey = await again.control.exportBundle();
  assert.ok(JSON.stringify(sameKey.state) === JSON.stringify(bundle.state) && sameKey.seal === bundle.seal, 'the same seed and key: the same sealed state');
  const other = await original('another key');
  assert.ok(JSON.stringify((await other.control.exportBundle()).state) !== JSON.stringify(bundle.state), 'another key: other sealed values');
  await Promise.all([mock, fork, again, other].map((m) => m.close()));
});

test('without the key a replay says which sealed values it cannot open and how to give the key; with it the file passes', async () => {
  const mock = await original(SEAL_KEY);
  const bundle = await mock.control.exportBundle();
  const hint = 'give the key it was sealed with: PRM_SEAL_KEY=... in the environment, --seal-key, or createApp({ sealKey })';
  for (const sealKey of [undefined, 'a wrong key']) {
    try {
      await createApp({ storage: 'memory', bundle, sealKey, seed: SEED });
      assert.unreachable('a bundle opened without its key');
    } catch (err) {
      assert.instance(err, ValidationError);
      assert.equal(
        (err as ValidationError).items.map((i) => [i.loc, i.msg]),
        [
          [
            ['body', 'seal'],
            `Value error, The bundle was sealed with another key, and it holds sealed admin_key (2), broker_secret (2), webhook_secret (2), tool_arguments (14): ${hint}`,
          ],
        ],
      );
    }
  }
  const file = await mock.control.exportTest();
  const without = dir.run('no-key.test.mjs', file, 'node-test', { PRM_SEAL_KEY: undefined });
  assert.is(without.code, 1);
  assert.ok(without.out.includes('token (') && without.out.includes(hint), without.out.slice(-2000));
  const withKey = dir.run('with-key.test.mjs', file, 'node-test');
  assert.is(withKey.code, 0, withKey.out.slice(-2000));
  await mock.close();
});

test.run();
