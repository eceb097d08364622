// The fast path answers exactly as Koa's whole chain: the same status, headers (Date aside), body and journal entry for a
// matrix of v3 reads (ok, refusals, queries, sandboxes, faults), and it takes only the requests it may take.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { OwnedResponse } from '../../src/fast-path-sent.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const RUN = DEMO.runs.waitingApproval;
const owner = bearer(DEMO.tokens.owner);

interface Answer {
  status: number;
  message: string | undefined;
  headers: string[];
  body: string;
}

function listen(listener: RequestListener, owned = false): Promise<Server> {
  const server = owned ? createServer({ ServerResponse: OwnedResponse }, listener) : createServer(listener);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** One request with these exact headers (Host given, so both servers see the same one); raw headers kept, Date dropped. */
function send(server: Server, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { Host: 'localhost', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const raw = res.rawHeaders.filter((_, i, all) => all[i - (i % 2)].toLowerCase() !== 'date');
        resolve({ status: res.statusCode ?? 0, message: res.statusMessage, headers: raw, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The newest journal entry without what differs by nature (its id, its duration, its byte count). */
function lastEntry(mock: MockApp): unknown {
  const all = mock.control.journal.records();
  const e = { ...(all.at(-1) as unknown as Record<string, unknown>) };
  delete e.id;
  delete e.duration_ms;
  return JSON.parse(JSON.stringify({ ...e, size: undefined }));
}

interface Setup {
  mock: MockApp;
  fast: Server;
  /** The fast path in a server the mock owns (as the CLI's): each head goes out in one writeHead. */
  owned: Server;
  full: Server;
  /** Koa contexts made so far: the whole chain makes one per request, the fast path none. */
  contexts: () => number;
  sandbox: string;
}

async function setup(): Promise<Setup> {
  // A mock clock standing still: both sides' entries carry the same arrival time.
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
  let made = 0;
  const create = mock.app.createContext.bind(mock.app);
  mock.app.createContext = ((req, res) => (made++, create(req, res))) as typeof mock.app.createContext;
  const fast = await listen(mock.callback());
  const owned = await listen(mock.callback(), true);
  const full = await listen(mock.app.callback());
  const created = await send(full, 'POST', '/_mock/sandboxes', { 'Content-Type': 'application/json' });
  const sandbox = (JSON.parse(created.body) as { id: string }).id;
  return { mock, fast, owned, full, contexts: () => made, sandbox };
}

/** Runs `body` on a fresh setup, closing both servers and the mock after it whatever happens. */
async function withSetup(body: (s: Setup) => Promise<void>): Promise<void> {
  const s = await setup();
  try {
    await body(s);
  } finally {
    s.fast.close();
    s.owned.close();
    s.full.close();
    await s.mock.close();
  }
}

/** Sends the request through both paths (fast first) and asserts the same answer and the same journal entry. */
async function same(s: Setup, path: string, headers: Record<string, string> = owner, method = 'GET'): Promise<Answer> {
  const ownedBefore = s.mock.control.journal.next;
  const o = await send(s.owned, method, path, headers);
  const entryOwned = s.mock.control.journal.next > ownedBefore ? lastEntry(s.mock) : null;
  const before = s.mock.control.journal.next;
  const a = await send(s.fast, method, path, headers);
  const journaledFast = s.mock.control.journal.next > before;
  const entryFast = journaledFast ? lastEntry(s.mock) : null;
  const b = await send(s.full, method, path, headers);
  const journaledFull = s.mock.control.journal.next > before + (journaledFast ? 1 : 0);
  const entryFull = journaledFull ? lastEntry(s.mock) : null;
  assert.equal(a, b, `${method} ${path}: answers`);
  assert.is(journaledFast, journaledFull, `${method} ${path}: journaled on one side only`);
  assert.equal(entryFast, entryFull, `${method} ${path}: journal entries`);
  assert.equal(o, a, `${method} ${path}: answers of the owned server (one writeHead)`);
  assert.equal(entryOwned, entryFast, `${method} ${path}: journal entries of the owned server`);
  return a;
}

/** Asserts that the fast path answered `path` itself (no Koa context made) and that the whole chain answers it the same. */
async function fastAndSame(s: Setup, path: string, headers: Record<string, string> = owner): Promise<Answer> {
  const made = s.contexts();
  const answer = await send(s.fast, 'GET', path, headers);
  assert.is(s.contexts(), made, `GET ${path}: taken by the fast path`);
  void answer;
  return same(s, path, headers);
}

const V3 = `/api/v3/projects/${P}`;
const READS = [
  `${V3}/runs/${RUN}`,
  `${V3}/runs/${RUN}?runtime_mode=live`,
  `${V3}/runs/${RUN}?runtime_mode=bogus`,
  `${V3}/runs/${RUN}?runtime_mode=live&runtime_mode=test`,
  `${V3}/runs/${RUN}/`,
  `${V3}/runs/00000000-0000-4000-8000-000000000000`,
  `${V3}/runs/not-a-uuid`,
  `${V3}/approvals`,
  `${V3}/approvals?status=pending&limit=1`,
  `${V3}/approvals/${DEMO.approvals.pendingWaiting}`,
  `${V3}/approvals/apr_unknown`,
  `${V3}/jobs`,
  `${V3}/connections/crm`,
  `${V3}/releases`,
  `${V3}/releases?limit=0`,
  `${V3}/releases/${DEMO.releases.gen4Candidate}/diff`,
  `${V3}/users?limit=2`,
  `${V3}/users/${DEMO.principals.owner}`,
  `/api/v3/projects/${DEMO.projects.globex}/runs/${RUN}`,
];

test('every v3 read, ok or refused, with and without credentials: the same answer and entry on both paths', () =>
  withSetup(async (s) => {
    for (const path of READS) {
      await fastAndSame(s, path);
      await fastAndSame(s, path, {});
      await fastAndSame(s, path, bearer(DEMO.tokens.expired));
      await fastAndSame(s, path, { Authorization: 'Bearer nope', 'X-Test-Name': 'fast path' });
      await fastAndSame(s, path, bearer(DEMO.tokens.viewer));
    }
    const ok = await same(s, READS[0]);
    assert.is(ok.status, 200);
    assert.ok(ok.headers.includes('Content-Type') && ok.headers.includes('application/json; charset=utf-8'));
    const refused = await same(s, READS[0], {});
    assert.is(refused.status, 401);
    assert.ok(refused.headers.includes('WWW-Authenticate'));
    assert.is((await same(s, READS[6])).status, 422);
    assert.is((await same(s, READS[5])).status, 404);
  }));

test('sandboxes by path and header, faults and other methods: the same answer and entry; what the fast path leaves, Koa answers', () =>
  withSetup(async (s) => {
    // A sandbox named by its path prefix or its header is a read the fast path serves from that sandbox's mock.
    await fastAndSame(s, `/sandboxes/${s.sandbox}${V3}/runs/${RUN}`);
    await fastAndSame(s, `${V3}/runs/${RUN}`, { ...owner, 'X-Mock-Sandbox': s.sandbox });
    await fastAndSame(s, `/sandboxes/${s.sandbox}${V3}/users`, {});
    // An unknown sandbox, two that conflict, a sandbox host: left to the selector, answered alike.
    await same(s, `/sandboxes/sbx_unknown${V3}/runs/${RUN}`);
    await same(s, `/sandboxes/${s.sandbox}${V3}/runs/${RUN}`, { ...owner, 'X-Mock-Sandbox': 'other' });
    await same(s, `${V3}/runs/${RUN}`, { ...owner, Host: `${s.sandbox}.localhost` });
    // Faults for other routes leave the fast path on; a fault that could match sends the request through the chain.
    s.mock.control.addFault({ match: { operation: 'listUsers' }, status: 503 });
    await fastAndSame(s, `${V3}/runs/${RUN}`);
    s.mock.control.addFault({ match: { operation: 'getRun' }, status: 503, times: 4 });
    const faulted = await same(s, `${V3}/runs/${RUN}`);
    assert.is(faulted.status, 503);
    s.mock.control.clearFaults();
    await fastAndSame(s, `${V3}/runs/${RUN}`);
    // Other methods, unknown routes and targets Koa parses its own way.
    await same(s, `${V3}/runs/${RUN}`, owner, 'HEAD');
    await same(s, `${V3}/runs/${RUN}`, owner, 'OPTIONS');
    await same(s, `${V3}/nothing-here`);
    await same(s, `/API/V3/projects/${P}/runs/${RUN}`);
    await same(s, `${V3}/runs/${RUN}#part`);
  }));

test('what the fast path keeps between requests follows every write: the body, the token, its principal, the clock', () =>
  withSetup(async (s) => {
    const path = `${V3}/runs/${RUN}`;
    const first = await fastAndSame(s, path);
    // A write replaces the run: the next answer is the new body (and its length) on both paths, in process too.
    const state = structuredClone(s.mock.control.exportState());
    const run = state.runs.find((r) => r.id === RUN)!;
    run.cost_usd = 12.5;
    await s.mock.control.importState(state);
    const after = await fastAndSame(s, path);
    const expected = { ...(JSON.parse(first.body) as Record<string, unknown>), cost_usd: 12.5 };
    assert.equal(JSON.parse(after.body), expected);
    assert.ok(after.headers.includes(String(Buffer.byteLength(after.body))));
    const inProcess = await s.mock.fetch(path, { headers: owner });
    assert.is(inProcess.headers.get('content-length'), String(Buffer.byteLength(after.body)));
    assert.equal(await inProcess.json(), expected);
    // The same path again with an id spelled otherwise (upper case): read as the canonical id, as before.
    assert.is((await fastAndSame(s, `${V3}/runs/${RUN.toUpperCase()}`)).body, after.body);
    // The principal loses its role in the run's workspace: 404, although the same token was answered a moment ago.
    const owned = structuredClone(s.mock.control.exportState());
    const principal = owned.principals.find((p) => p.id === DEMO.principals.owner)!;
    const project = owned.projects.find((p) => p.id === P)!;
    principal.memberships = principal.memberships.filter((m) => m.workspace_id !== project.workspace_id);
    await s.mock.control.importState(owned);
    assert.is((await fastAndSame(s, path)).status, 404);
    // The token is revoked: 401 token_invalid.
    const revoked = structuredClone(s.mock.control.exportState());
    revoked.access_tokens.find((t) => t.token === DEMO.tokens.owner)!.revoked = true;
    await s.mock.control.importState(revoked);
    const refused = await fastAndSame(s, path);
    assert.equal([refused.status, (JSON.parse(refused.body) as { detail: { reason_code: string } }).detail.reason_code], [401, 'token_invalid']);
  }));

test('a token answered once is refused once the mock clock passes its expiry, on both paths', () =>
  withSetup(async (s) => {
    const token = s.mock.control.exportState().access_tokens.find((t) => t.token === DEMO.tokens.owner)!;
    const path = `${V3}/runs/${RUN}`;
    assert.is((await fastAndSame(s, path)).status, 200);
    await s.mock.control.setClock(token.expires_at);
    const refused = await fastAndSame(s, path);
    assert.equal([refused.status, (JSON.parse(refused.body) as { detail: { reason_code: string } }).detail.reason_code], [401, 'token_expired']);
  }));

test('client facts: requests of one principal in flight are counted alike on both paths', () =>
  withSetup(async (s) => {
    const path = `${V3}/runs/${RUN}`;
    const made = s.contexts();
    await Promise.all([send(s.fast, 'GET', path, owner), send(s.fast, 'GET', path, owner)]);
    assert.is(s.contexts(), made);
    const entries = s.mock.control.journal.records().slice(-2);
    assert.equal(
      entries.map((e) => e.client?.principal),
      [DEMO.principals.owner, DEMO.principals.owner],
    );
    for (const e of entries) assert.ok(e.client!.inFlight >= 1);
  }));

test("mock.callback() in someone else's server: after the fast path's answer, res.getHeader() reads its headers", () =>
  withSetup(async (s) => {
    const listener = s.mock.callback();
    const seen: Record<string, unknown>[] = [];
    const theirs = await listen((req, res) => {
      res.on('finish', () => seen.push({ type: res.getHeader('content-type'), length: res.getHeader('content-length') }));
      listener(req, res);
    });
    try {
      const made = s.contexts();
      const a = await send(theirs, 'GET', `${V3}/runs/${RUN}`, owner);
      assert.is(s.contexts(), made, 'taken by the fast path');
      assert.is(a.status, 200);
      assert.equal(seen, [{ type: 'application/json; charset=utf-8', length: Buffer.byteLength(a.body) }]);
    } finally {
      theirs.close();
    }
  }));

test.run();
