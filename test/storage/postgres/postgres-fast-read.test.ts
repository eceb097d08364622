// Reads on PostgreSQL take the fast path: each waits for a catch-up begun after it arrived (shared by the reads around
// it), so a write acknowledged through one instance is the next read through another, and no cached answer outlives it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';
import { freshSchema, needsPostgres, proxy } from '../../helpers/postgres.js';
import { postgresApps } from '../../helpers/postgres-apps.js';
import { DEMO, bearer } from '../../helpers/demo.js';

needsPostgres();
const P = DEMO.projects.support;
const RUN = DEMO.runs.waitingApproval;
const RUN_PATH = `/api/v3/projects/${P}/runs/${RUN}`;
const owner = bearer(DEMO.tokens.owner);
const { storage, apps } = postgresApps(test);
const servers: Server[] = [];
test.after(() => servers.splice(0).forEach((s) => s.close()));

interface Reader {
  mock: MockApp;
  /** The fast path first (the server's listener), and Koa's whole chain. */
  fast: string;
  full: string;
  /** Koa contexts made so far: the whole chain makes one per request, the fast path none. */
  contexts: () => number;
  /** Catch-up queries made so far. */
  looks: () => number;
}

async function listen(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * An instance that hears nothing of the others (no LISTEN session): only a request's own catch-up can bring it what
 * they wrote, so a fresh answer proves that catch-up. Its catch-up queries are counted; with `slowMs`, each one's
 * answer comes that much after the database gave it (a window in which others' writes land unseen by it).
 */
async function reader(schema: string, { url, slowMs = 0 }: { url?: string; slowMs?: number } = {}): Promise<Reader> {
  const adapter = url ? postgresStorage({ connectionString: url, schema }) : storage(schema);
  adapter.watch = () => {};
  let looks = 0;
  const since = adapter.changesSince.bind(adapter);
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), slowMs));
  adapter.changesSince = (seq) => (looks++, slowMs ? since(seq).then(later) : since(seq));
  const mock = await createApp({ storage: adapter, fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
  apps.push(mock);
  let made = 0;
  const create = mock.app.createContext.bind(mock.app);
  mock.app.createContext = ((req, res) => (made++, create(req, res))) as typeof mock.app.createContext;
  return { mock, fast: await listen(mock.callback()), full: await listen(mock.app.callback()), contexts: () => made, looks: () => looks };
}

async function writer(schema: string): Promise<{ mock: MockApp; url: string }> {
  const mock = await createApp({ storage: storage(schema), fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
  apps.push(mock);
  return { mock, url: await listen(mock.callback()) };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

async function get(base: string, path: string, headers: Record<string, string> = owner): Promise<Answer> {
  const res = await fetch(base + path, { headers });
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => name !== 'date' && (out[name] = value));
  return { status: res.status, headers: out, body: await res.json() };
}

/** The newest journal entry without what differs by nature (its duration) or by server (the Host: each path has its port). */
function lastEntry(mock: MockApp): unknown {
  const e = JSON.parse(JSON.stringify(mock.control.journal.records().at(-1))) as Record<string, unknown> & { requestHeaders: Record<string, unknown> };
  delete e.id;
  delete e.duration_ms;
  delete e.requestHeaders.host;
  return e;
}

/**
 * A read through B's fast path (no Koa context made, unless `taken` is false), and the same read through its whole
 * chain: the same answer and journal entry.
 */
async function fastRead(b: Reader, path: string, headers: Record<string, string> = owner, taken = true): Promise<Answer> {
  const made = b.contexts();
  const a = await get(b.fast, path, headers);
  assert.is(b.contexts() === made, taken, `GET ${path}: taken by the fast path`);
  const entry = lastEntry(b.mock);
  assert.equal(await get(b.full, path, headers), a, `GET ${path}: the same answer on the whole chain`);
  assert.equal(lastEntry(b.mock), entry, `GET ${path}: the same journal entry on the whole chain`);
  return a;
}

test('a write acknowledged through A is the next read through B, and B’s cached answers follow it', async () => {
  const schema = freshSchema();
  const a = await writer(schema);
  const b = await reader(schema);
  const first = await fastRead(b, RUN_PATH);
  assert.is(first.status, 200);
  assert.is((first.body as { status: string }).status, 'waiting_approval');
  await fastRead(b, RUN_PATH); // the answer B caches for this record
  // A cancels the run: B's next read answers exactly what A's cancel answered.
  const cancel = await fetch(`${a.url}${RUN_PATH}/cancel`, { method: 'POST', headers: { ...owner, 'content-type': 'application/json' }, body: '{}' });
  assert.is(cancel.status, 200);
  const cancelled = (await cancel.json()) as { status: string };
  assert.is(cancelled.status, 'cancelled');
  assert.is(b.mock.store.seq < a.mock.store.seq, true, 'B has not looked yet');
  assert.equal((await fastRead(b, RUN_PATH)).body, cancelled);
  // Five more writes through A, each read back through B at once.
  for (let i = 1; i <= 5; i++) {
    await a.mock.store.transact((tx) => void tx.put('runs', { ...tx.get('runs', RUN)!, cost_usd: i }));
    assert.equal((await fastRead(b, RUN_PATH)).body, { ...cancelled, cost_usd: i });
  }
  // The token is revoked through A (a change set): B, which answered it a moment ago, refuses it.
  await a.mock.store.transact((tx) => void tx.put('access_tokens', { ...tx.get('access_tokens', DEMO.tokens.owner)!, revoked: true }));
  const refused = await fastRead(b, RUN_PATH);
  assert.equal([refused.status, (refused.body as { detail: { reason_code: string } }).detail.reason_code], [401, 'token_invalid']);
  // A reset through A (a whole state): the run is back as it was, the token valid again.
  await a.mock.control.reset();
  assert.equal(await fastRead(b, RUN_PATH), first);
});

test('reads in flight on B share catch-ups, and every read that began after a write was acknowledged sees it', async () => {
  const schema = freshSchema();
  const a = await writer(schema);
  // B's catch-ups are slow: a read that joined one already on its way would miss the writes acknowledged meanwhile.
  const b = await reader(schema, { slowMs: 10 });
  let acked = 0; // the last value A's writes had acknowledged
  let stop = false;
  const seen: { after: number; got: number }[] = [];
  const read = async () => {
    const after = acked;
    const r = await get(b.fast, RUN_PATH);
    seen.push({ after, got: (r.body as { cost_usd: number }).cost_usd });
  };
  const contexts = b.contexts();
  const looks = b.looks();
  // Readers that keep a catch-up on its way nearly all the time, and one read sent the moment each write is acknowledged.
  const loops = Array.from({ length: 16 }, async () => {
    while (!stop) await read();
  });
  const probes: Promise<void>[] = [];
  for (let i = 1; i <= 20; i++) {
    await a.mock.store.transact((tx) => void tx.put('runs', { ...tx.get('runs', RUN)!, cost_usd: i }));
    acked = i;
    probes.push(read());
    await new Promise((r) => setTimeout(r, 15));
  }
  stop = true;
  await Promise.all([...loops, ...probes]);
  assert.is(b.contexts(), contexts, 'every read taken by the fast path');
  // The cost only grows here, so a read sees at least the last write acknowledged before it began.
  const stale = seen.filter((s) => s.got < s.after);
  assert.equal(stale, [], 'no read missed a write acknowledged before it began');
  assert.ok(seen.length >= 16 * 2, `reads made: ${seen.length}`);
  assert.ok(b.looks() - looks < seen.length, `catch-ups shared: ${b.looks() - looks} for ${seen.length} reads`);
});

test('the database down: a read the fast path took answers the whole chain’s 503, and is taken again once it is back', async () => {
  const gate = await proxy();
  try {
    const schema = freshSchema();
    const b = await reader(schema, { url: gate.url });
    const ok = await fastRead(b, RUN_PATH);
    await gate.cut();
    // Its catch-up fails: the fast path leaves it to the whole chain, which answers the storage's 503.
    const down = await fastRead(b, RUN_PATH, owner, false);
    assert.equal(
      { status: down.status, retry: down.headers['retry-after'], body: down.body },
      {
        status: 503,
        retry: '1',
        body: {
          detail: {
            reason_code: 'storage_unavailable',
            message: 'The change could not be stored, so it was not made. Try again later.',
            next_action: 'retry_later',
          },
        },
      },
    );
    assert.equal(
      b.mock.control.journal
        .records()
        .slice(-2)
        .map((e) => [e.status, e.path]),
      [
        [503, RUN_PATH],
        [503, RUN_PATH],
      ],
    );
    await gate.restore();
    let again = down;
    for (let i = 0; i < 50 && again.status !== 200; i++) {
      again = await get(b.fast, RUN_PATH);
      if (again.status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(again, ok);
    assert.equal(await fastRead(b, RUN_PATH), ok);
  } finally {
    await gate.close();
  }
});

test.run();
