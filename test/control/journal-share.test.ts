// Consecutive journal entries keep one copy of equal request headers, paths and client facts: each entry still shows
// exactly its own request, the bounds count every entry whole, and each sandbox's journal holds its own requests.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { Journal, type ClientFacts, type JournalRecord } from '../../src/control/journal.js';
import { JournalBudget } from '../../src/control/journal-budget.js';
import { DEMO } from '../helpers/demo.js';
import { STORAGES, removeDirs } from '../helpers/storages.js';

const PATH = '/api/v3/projects/p/runs/r';
const record = (over: Partial<JournalRecord> = {}): JournalRecord => ({
  atMs: 0,
  method: 'GET',
  path: PATH,
  querystring: '',
  status: 200,
  duration_ms: 0,
  operation: 'getRun',
  requestHeaders: {},
  requestBody: null,
  responseHeaders: {},
  responseBody: null,
  ...over,
});
const facts = (over: Partial<ClientFacts> = {}): ClientFacts => ({ principal: 'u-1', access: 'fp-1', inFlight: 1, ...over });

test('journal share: equal request headers and client facts are one object for consecutive entries', () => {
  const j = new Journal();
  j.add(record({ requestHeaders: { host: 'h', accept: 'application/json' }, client: facts() }));
  j.add(record({ requestHeaders: { host: 'h', accept: 'application/json' }, client: facts() }));
  j.add(record({ requestHeaders: { host: 'h', accept: 'application/json' }, client: facts() }));
  const [a, b, c] = j.records();
  assert.ok(b.requestHeaders === a.requestHeaders && c.requestHeaders === a.requestHeaders);
  assert.ok(b.client === a.client && c.client === a.client);
  for (const e of j.list()) assert.equal(e.request.headers, { host: 'h', accept: 'application/json' });
});

// Each pair: the earlier entry's and the later entry's; the later must keep its own (never the earlier's).
const UNSHARED: [string, Partial<JournalRecord>, Partial<JournalRecord>][] = [
  ['a header value differs', { requestHeaders: { accept: 'a' } }, { requestHeaders: { accept: 'b' } }],
  ['the later adds a header', { requestHeaders: { accept: 'a' } }, { requestHeaders: { accept: 'a', 'x-test-name': 't' } }],
  ['the later leaves a header out', { requestHeaders: { accept: 'a', 'x-test-name': 't' } }, { requestHeaders: { accept: 'a' } }],
  ['the same names, one empty', { requestHeaders: { accept: 'a', 'x-test-name': '' } }, { requestHeaders: { accept: 'a', 'x-test-name': 't' } }],
  ['a list value', { requestHeaders: { cookie: ['a', 'b'] } }, { requestHeaders: { cookie: ['a', 'b'] } }],
  ['a name an object inherits', { requestHeaders: {} }, { requestHeaders: { constructor: 'x' } }],
  ['in flight differs', { client: facts() }, { client: facts({ inFlight: 2 }) }],
  ['the principal differs', { client: facts() }, { client: facts({ principal: 'u-2' }) }],
  ['the reason differs', { client: facts({ reason: 'run_not_found' }) }, { client: facts() }],
  ['the grant differs', { client: facts({ grant: 'refresh_token', refresh: 'r1' }) }, { client: facts({ grant: 'refresh_token', refresh: 'r2' }) }],
  ['slips named', { client: facts({ slips: [{ rule: 'r', fix: 'f' }] }) }, { client: facts({ slips: [{ rule: 'r', fix: 'f' }] }) }],
  ['the earlier had no facts', {}, { client: facts() }],
];

for (const [name, first, second] of UNSHARED) {
  test(`journal share: not shared when ${name}; each entry shows its own`, () => {
    const j = new Journal();
    j.add(record(first));
    j.add(record(second));
    const [a, b] = j.records();
    const own = record(second);
    if (second.requestHeaders) assert.ok(b.requestHeaders !== a.requestHeaders);
    if (second.client) assert.ok(b.client !== a.client);
    assert.equal(b.requestHeaders, own.requestHeaders);
    assert.equal(b.client, own.client);
    assert.equal(a.requestHeaders, record(first).requestHeaders);
    assert.equal(a.client, record(first).client);
  });
}

test('journal share: under a shared budget, an entry shares with the newest of any journal, not the last of its own', () => {
  const budget = new JournalBudget(1 << 20);
  const [a, b] = [new Journal({}, undefined, budget), new Journal({}, undefined, budget)];
  const h = () => ({ host: 'h', accept: 'application/json' });
  a.add(record({ requestHeaders: h(), client: facts() }));
  b.add(record({ requestHeaders: h(), client: facts() }));
  a.add(record({ requestHeaders: { accept: 'other' }, client: facts({ inFlight: 2 }) }));
  b.add(record({ requestHeaders: h(), client: facts() }));
  const [a1, a2] = a.records();
  const [b1, b2] = b.records();
  // b's first is a's first; b's second follows a's second (different), so it keeps its own, not b's first.
  assert.ok(b1.requestHeaders === a1.requestHeaders && b1.client === a1.client && b1.path === a1.path);
  assert.ok(b2.requestHeaders !== b1.requestHeaders && b2.client !== b1.client);
  assert.equal(b2.requestHeaders, h());
  assert.equal(a2.requestHeaders, { accept: 'other' });
  assert.equal(
    b.list().map((e) => e.request.headers),
    [h(), h()],
  );
});

for (const [name, first, second] of UNSHARED) {
  test(`journal share: across two journals under one budget, not shared when ${name}`, () => {
    const budget = new JournalBudget(1 << 20);
    const [a, b] = [new Journal({}, undefined, budget), new Journal({}, undefined, budget)];
    a.add(record(first));
    b.add(record(second));
    const [x] = a.records();
    const [y] = b.records();
    assert.ok(y.requestHeaders !== x.requestHeaders || (first.requestHeaders === undefined && second.requestHeaders === undefined));
    assert.equal(y.requestHeaders, second.requestHeaders ?? {});
    assert.equal(y.client, second.client);
    assert.ok(y.client === undefined || y.client !== x.client);
  });
}

test('journal share: another path is kept as its own; an equal one shows as sent', () => {
  const j = new Journal();
  j.add(record());
  j.add(record({ path: `${PATH}/events` }));
  j.add(record({ path: `${PATH}/events` }));
  assert.equal(
    j.summaries().map((e) => [e.id, e.path]),
    [
      [1, PATH],
      [2, `${PATH}/events`],
      [3, `${PATH}/events`],
    ],
  );
});

// Bytes per entry, as the journal's bounds count them: 512 + path + query + per header (name + 8 + value) + bodies.
const HEADERS = { host: 'mock.test', accept: 'application/json' };
const SIZE = 512 + PATH.length + ('host'.length + 8 + 'mock.test'.length) + ('accept'.length + 8 + 'application/json'.length);

for (const [bytes, held] of [
  [3 * SIZE, [2, 3, 4]],
  [3 * SIZE - 1, [3, 4]],
  [3 * SIZE + 1, [2, 3, 4]],
] as const) {
  test(`journal share: a byte bound of ${bytes} (3 entries are ${3 * SIZE}) holds ${held.length} of 4 entries sharing headers, each counted whole`, () => {
    const j = new Journal({ bytes });
    for (let i = 0; i < 4; i++) j.add(record({ requestHeaders: { ...HEADERS }, client: facts() }));
    assert.equal(
      j.list().map((e) => e.id),
      held,
    );
    assert.is(j.bytes, held.length * SIZE);
    assert.is(j.evicted, 4 - held.length);
    // The entry whose objects the others share has left: they still show them whole.
    for (const e of j.list()) assert.equal(e.request.headers, HEADERS);
    for (const e of j.records()) assert.equal(e.client, facts());
  });
}

for (const [entries, held] of [
  [3, [2, 3, 4]],
  [4, [1, 2, 3, 4]],
] as const) {
  test(`journal share: an entry bound of ${entries} holds ${held.length} of 4 entries sharing headers`, () => {
    const j = new Journal({ entries });
    for (let i = 0; i < 4; i++) j.add(record({ requestHeaders: { ...HEADERS } }));
    assert.equal(
      j.list().map((e) => e.id),
      held,
    );
    assert.is(j.bytes, held.length * SIZE);
  });
}

const RUN_PATH = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;

for (const storage of STORAGES) {
  test(`journal share (${storage.name}): GETs round-robin over 3 sandboxes, each named by a test header; each journal holds its own, newest of all kept under the shared budget`, async () => {
    const mock = await createApp({ storage: storage.make(), fixtures: demoFixture(), log: () => {} });
    try {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await mock.control.createSandbox()).id);
      const sent: { sandbox: number; test: string }[] = [];
      for (let round = 0; round < 4; round++) {
        for (let s = 0; s < 3; s++) {
          // Rounds 0 and 1 send the same headers (shared with the entry before); rounds 2 and 3 name themselves.
          const name = round < 2 ? `sandbox-${s}` : `sandbox-${s}-round-${round}`;
          const res = await mock.fetch(`/sandboxes/${ids[s]}${RUN_PATH}`, { headers: { authorization: `Bearer ${DEMO.tokens.owner}`, 'x-test-name': name } });
          assert.is(res.status, 200);
          await res.arrayBuffer();
          sent.push({ sandbox: s, test: name });
        }
      }
      assert.equal(mock.control.requests(), []);
      for (let s = 0; s < 3; s++) {
        const res = await mock.fetch(`/sandboxes/${ids[s]}/_mock/requests?summary=true`);
        const { items } = (await res.json()) as { items: { id: number; path: string; status: number; test?: string; principal?: string }[] };
        const mine = sent.filter((x) => x.sandbox === s);
        assert.equal(
          items.map((e) => ({ id: e.id, path: e.path, status: e.status, test: e.test, principal: e.principal })),
          mine.map((x, i) => ({ id: i + 1, path: RUN_PATH, status: 200, test: x.test, principal: DEMO.principals.owner })),
        );
      }
    } finally {
      await mock.close();
    }
  });

  test(`journal share (${storage.name}): under a shared budget of 5 entries' bytes, the 5 newest requests of all stay, whichever sandbox`, async () => {
    // The size of one entry of this request, read from a sandbox that got only it.
    const probe = await createApp({ storage: storage.make(), fixtures: demoFixture(), log: () => {} });
    const headers = { authorization: `Bearer ${DEMO.tokens.owner}`, 'x-test-name': 'budget' };
    let size: number;
    try {
      const id = (await probe.control.createSandbox()).id;
      await (await probe.fetch(`/sandboxes/${id}${RUN_PATH}`, { headers })).arrayBuffer();
      // The journals' bytes as the metrics report them: this one entry.
      const metrics = await (await probe.fetch('/_mock/metrics')).text();
      size = Number(/^prm_journal_bytes (\d+)$/m.exec(metrics)?.[1]);
    } finally {
      await probe.close();
    }
    assert.ok(size > 512, String(size));
    for (const [bytes, kept] of [
      [5 * size, 5],
      [5 * size - 1, 4],
    ] as const) {
      const mock = await createApp({ storage: storage.make(), fixtures: demoFixture(), log: () => {}, journal: { bytes } });
      try {
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push((await mock.control.createSandbox()).id);
        const order: [number, number][] = []; // [sandbox, its entry id], in the order sent
        const next = [1, 1, 1];
        for (let k = 0; k < 9; k++) {
          const s = k % 3;
          await (await mock.fetch(`/sandboxes/${ids[s]}${RUN_PATH}`, { headers })).arrayBuffer();
          order.push([s, next[s]++]);
        }
        const held: [number, number][] = [];
        for (let s = 0; s < 3; s++) {
          const { items } = (await (await mock.fetch(`/sandboxes/${ids[s]}/_mock/requests?summary=true`)).json()) as { items: { id: number }[] };
          for (const e of items) held.push([s, e.id]);
        }
        const newest = order.slice(-kept);
        assert.equal(
          held.sort((a, b) => a[0] - b[0] || a[1] - b[1]),
          [...newest].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
          `bytes ${bytes}`,
        );
      } finally {
        await mock.close();
      }
    }
  });
}

test.after(removeDirs);
test.run();
