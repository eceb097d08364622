// Tables that only grew (tokens, codes, webhook dedupe keys): a documented retention by the mock clock, pruned in amortized sweeps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPkcePair, signBrokerPayload } from '../../src/client-helpers.js';
import { DEDUPE_KEYS_MAX, RETENTION_MS, SWEEP_MIN_INSERTS, sweepRetained } from '../../src/domain/retention.js';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const DAY = 24 * 60 * 60 * 1000;
const TOKEN = '/api/v3/auth/token';
const PROJECT = `/api/v3/projects/${DEMO.projects.support}/jobs`;
type Mock = Awaited<ReturnType<typeof freshMock>>;

test('retention: 30 days by the mock clock, and the sweep thresholds, are as documented', () => {
  assert.is(RETENTION_MS, 30 * DAY);
  assert.is(DEDUPE_KEYS_MAX, 100_000);
  assert.is(SWEEP_MIN_INSERTS, 1_000);
});

/** A fresh token family: code -> (access, refresh). */
async function family({ mock, http }: Mock) {
  const pkce = createPkcePair();
  const minted = await mock.control.mintAuthorizationCode({ principal_id: DEMO.principals.owner, code_challenge: pkce.code_challenge });
  const res = await http.post(TOKEN).send({ grant_type: 'authorization_code', code: minted.code, code_verifier: pkce.code_verifier });
  assert.is(res.status, 200);
  return { code: minted.code, verifier: pkce.code_verifier, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

async function rotate({ http }: Mock, refresh: string) {
  const res = await http.post(TOKEN).send({ grant_type: 'refresh_token', refresh_token: refresh });
  assert.is(res.status, 200);
  return { access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

const reason = async ({ http }: Mock, access: string) => (await http.get(PROJECT).set(bearer(access))).body.detail?.reason_code ?? 'ok';

test('retention: within 30 days past its end a family behaves as before (expired, reuse revokes); after, it is forgotten', async () => {
  const m = await freshMock();
  const f = await family(m);
  const second = await rotate(m, f.refresh);
  await m.mock.control.advanceClock(40 * DAY); // tokens expired (access 1 h, refresh 30 d), family ended 10 days ago
  // Only the fixture's expired token goes: it expired on 2026-11-01, 59 days before.
  assert.equal((await sweepRetained(m.mock.deps)).pruned, { access_tokens: 1, refresh_tokens: 0, authorization_codes: 0, chat_updates: 0, broker_events: 0 });
  assert.is(m.mock.store.get('access_tokens', DEMO.tokens.expired), undefined);
  assert.is(await reason(m, f.access), 'token_expired');
  assert.is(await reason(m, second.access), 'token_expired');
  const reuse = await m.http.post(TOKEN).send({ grant_type: 'refresh_token', refresh_token: f.refresh });
  assert.match(reuse.body.detail.message, 'already used');
  assert.ok(m.mock.store.get('refresh_tokens', second.refresh)?.revoked, 'reuse inside the retention did not revoke the family');
  assert.ok(m.mock.store.get('authorization_codes', f.code)?.used);

  await m.mock.control.advanceClock(21 * DAY); // the family ended 31 days ago
  const swept = await sweepRetained(m.mock.deps);
  assert.equal(swept.pruned, { access_tokens: 2, refresh_tokens: 2, authorization_codes: 1, chat_updates: 0, broker_events: 0 });
  assert.is(await reason(m, f.access), 'token_invalid');
  assert.is(m.mock.store.get('refresh_tokens', f.refresh), undefined);
  assert.is(m.mock.store.get('authorization_codes', f.code), undefined);
  const replay = await m.http.post(TOKEN).send({ grant_type: 'refresh_token', refresh_token: f.refresh });
  assert.is(replay.status, 400);
  assert.match(replay.body.detail.message, 'unknown');
  // The fixture's own tokens (valid until 2099) stay.
  assert.is(await reason(m, DEMO.tokens.owner), 'ok');
});

test('retention: a rotated-out refresh token is kept while its family lives, so reuse still revokes the family', async () => {
  const m = await freshMock();
  const f = await family(m);
  await m.mock.control.advanceClock(29 * DAY);
  const next = await rotate(m, f.refresh); // the newest refresh token lives until day 59
  await m.mock.control.advanceClock(36 * DAY); // day 65: f.refresh ended on day 30, 35 days ago
  await sweepRetained(m.mock.deps);
  assert.ok(m.mock.store.get('refresh_tokens', f.refresh), 'the old refresh token was pruned while its family lived');
  const reuse = await m.http.post(TOKEN).send({ grant_type: 'refresh_token', refresh_token: f.refresh });
  assert.is(reuse.status, 400);
  assert.match(reuse.body.detail.message, 'already used');
  assert.ok(m.mock.store.get('refresh_tokens', next.refresh)?.revoked, 'reuse did not revoke the family');
  // A used code is kept as long, and presenting it again is still detected.
  const again = await m.http.post(TOKEN).send({ grant_type: 'authorization_code', code: f.code, code_verifier: f.verifier });
  assert.match(again.body.detail.message, 'already used');
});

const hook = `/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`;
const chat = (http: Mock['http'], update_id: number) =>
  http
    .post(hook)
    .set({ 'X-Chatapp-Secret-Token': DEMO.chatSecret })
    .send({ update_id, message: { from: { id: 42 }, text: 'hi' } });
const broker = (http: Mock['http'], event_id: string) => {
  const signed = signBrokerPayload(
    { event_id, event_type: 'connection.refreshed', connection_resource_id: 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0', occurred_at: '2026-11-20T11:59:30.000Z' },
    DEMO.brokerSecret,
  );
  return http.post('/api/v3/webhooks/broker').set(signed.headers).send(signed.body);
};

test('retention: webhook dedupe keys are kept 30 days after receipt (duplicates detected), then forgotten', async () => {
  const m = await freshMock();
  const first = await chat(m.http, 9001);
  assert.is(first.body.duplicate, false);
  assert.equal((await broker(m.http, 'evt_keep')).body, { accepted: true, stored: true });
  await m.mock.control.advanceClock(29 * DAY);
  await sweepRetained(m.mock.deps);
  const dup = await chat(m.http, 9001);
  assert.equal(dup.body, { accepted: true, run_id: first.body.run_id, duplicate: true });
  assert.equal((await broker(m.http, 'evt_keep')).body, { accepted: true, stored: false });

  await m.mock.control.advanceClock(2 * DAY);
  const swept = await sweepRetained(m.mock.deps);
  assert.is(swept.pruned.chat_updates, 1);
  assert.is(swept.pruned.broker_events, 1);
  const late = await chat(m.http, 9001);
  assert.is(late.body.duplicate, false);
  assert.is.not(late.body.run_id, first.body.run_id);
  assert.equal((await broker(m.http, 'evt_keep')).body, { accepted: true, stored: true });
});

test('retention: sweeps run by themselves, amortized (one per 1,000 new records or a quarter of the table), and keep tables bounded', async () => {
  const m = await freshMock();
  const t = m.mock.deps.retention;
  const mint = () => m.mock.control.mintAuthorizationCode({ principal_id: DEMO.principals.owner, code_challenge: 'x'.repeat(43), expires_in_ms: 60_000 });
  for (let i = 0; i < SWEEP_MIN_INSERTS - 1; i++) await mint();
  assert.is(t.sweeps, 0);
  await mint();
  assert.is(t.sweeps, 1);
  // The clock moves a day every 200 codes: 30 days of codes are kept, older ones go at the next sweep.
  let peak = 0;
  for (let i = 0; i < 20_000; i++) {
    await mint();
    if (i % 200 === 199) await m.mock.control.advanceClock(DAY);
    peak = Math.max(peak, m.mock.store.count('authorization_codes'));
  }
  // 100 days of codes were minted; what a sweep keeps (the last 30 days, the day of the cutoff and today: at most
  // 32 x 200) plus the quarter of that which may arrive before the next sweep.
  assert.ok(peak <= 32 * 200 * 1.25 + 10, `peak ${peak}`);
  assert.ok(m.mock.store.count('authorization_codes') >= 30 * 200, 'codes inside the retention were pruned');
  // Amortized: a sweep reads the table once per at least a quarter of its size in new records.
  assert.ok(t.sweeps <= 21, `${t.sweeps} sweeps for 21,000 inserts`);
  assert.ok(t.sweeps >= 5, `${t.sweeps} sweeps`);
});

test('retention: with a frozen clock, dedupe keys are capped at the newest DEDUPE_KEYS_MAX', async () => {
  const m = await freshMock();
  // Fill straight through the store (100k webhooks over HTTP would be slow), then let a sweep run.
  const now = m.mock.deps.clock.nowMs();
  await m.mock.store.transact((tx) => {
    for (let i = 0; i < DEDUPE_KEYS_MAX + 500; i++) {
      tx.put('broker_events', {
        event_id: `evt_${i}`,
        connection_resource_id: 'r',
        event_type: 'connection.refreshed',
        received_at: new Date(now - (DEDUPE_KEYS_MAX + 500 - i)).toISOString(),
      });
    }
  });
  const swept = await sweepRetained(m.mock.deps);
  assert.is(swept.pruned.broker_events, 500);
  assert.is(m.mock.store.count('broker_events'), DEDUPE_KEYS_MAX);
  assert.is(m.mock.store.get('broker_events', 'evt_499'), undefined);
  assert.ok(m.mock.store.get('broker_events', 'evt_500'));
});

test.run();
