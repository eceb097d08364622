// A run of alike journal entries shares one object of what they hold alike; an entry that differs in any one field holds
// its own, and every entry reads back exactly the record it was made from.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Journal, type JournalRecord } from '../../src/control/journal.js';
import { StoredEntry } from '../../src/control/journal-entry.js';

/** One answer's headers, as the fast path and the middleware keep them: one frozen object per answer, compared by identity. */
const RESPONSE_HEADERS = Object.freeze({ 'content-type': 'application/json' });
const record = (over: Partial<JournalRecord> = {}): JournalRecord => ({
  atMs: 1_790_000_000_000,
  method: 'GET',
  path: '/api/v3/projects/p/runs/r',
  querystring: '',
  status: 200,
  duration_ms: 1.5,
  operation: 'getRun',
  requestHeaders: { host: 'h' },
  requestBody: null,
  responseHeaders: RESPONSE_HEADERS,
  responseBody: '{"id":"r"}',
  client: { principal: 'u-1', access: 'fp', inFlight: 1 },
  ...over,
});
/** The fields a record gives its entry, read back from `e` (JSON: as compared, undefined fields left out). */
const fields = (e: JournalRecord) =>
  JSON.parse(
    JSON.stringify({
      atMs: e.atMs,
      method: e.method,
      path: e.path,
      querystring: e.querystring,
      status: e.status,
      duration_ms: e.duration_ms,
      operation: e.operation,
      requestHeaders: e.requestHeaders,
      requestBody: e.requestBody,
      responseHeaders: e.responseHeaders,
      responseBody: e.responseBody,
      fault: e.fault,
      drift: e.drift,
      client: e.client,
      simulated: e.simulated,
    }),
  );
const alikeOf = (e: StoredEntry) => (e as unknown as { alike: object }).alike;

test('entry alike: consecutive alike entries share one part, and each keeps its own id, time and duration', () => {
  const a = new StoredEntry(record(), 1, 600);
  const b = new StoredEntry(record({ atMs: 1_790_000_000_005, duration_ms: 2.25 }), 2, 610, a);
  assert.is(alikeOf(b), alikeOf(a));
  assert.equal([b.id, b.size, b.atMs, b.duration_ms], [2, 610, 1_790_000_000_005, 2.25]);
  assert.equal(fields(b), fields(record({ atMs: 1_790_000_000_005, duration_ms: 2.25 })));
});

// One field changed each: the later entry must hold its own part, with the changed value.
const CHANGED: [string, Partial<JournalRecord>][] = [
  ['method', { method: 'POST' }],
  ['path', { path: '/api/v3/projects/p/runs/s' }],
  ['querystring', { querystring: 'runtime_mode=api' }],
  ['status', { status: 404 }],
  ['operation', { operation: null }],
  ['request headers', { requestHeaders: { host: 'other' } }],
  ['request body', { requestBody: '{"a":1}' }],
  ['response headers', { responseHeaders: { 'content-type': 'text/plain' } }],
  ['response body', { responseBody: '{"id":"s"}' }],
  ['fault', { fault: { id: 'f-1', status: 503 } }],
  ['client facts', { client: { principal: 'u-2', access: 'fp', inFlight: 1 } }],
  ['simulated', { simulated: true }],
];

for (const [name, over] of CHANGED) {
  test(`entry alike: an entry whose ${name} differs holds its own, and reads it back`, () => {
    const a = new StoredEntry(record(), 1, 600);
    const b = new StoredEntry(record(over), 2, 600, a);
    assert.is.not(alikeOf(b), alikeOf(a));
    assert.equal(fields(b), fields(record(over)));
    assert.equal(fields(a), fields(record()));
    // And the entry after it, alike again, shares the changed one's.
    const c = new StoredEntry(record(over), 3, 600, b);
    assert.is(alikeOf(c), alikeOf(b));
  });
}

test('entry alike: as JSON an entry is its whole record with its id and size', () => {
  const a = new StoredEntry(record(), 1, 600);
  const b = new StoredEntry(record({ status: 404 }), 2, 610, a);
  assert.equal(JSON.parse(JSON.stringify(b)), { id: 2, size: 610, ...fields(record({ status: 404 })) });
});

test('entry alike: drift is an entry own (shadow mode adds it later to that entry alone)', () => {
  const j = new Journal();
  j.add(record());
  j.add(record());
  assert.ok(j.addDrift(1, [{ path: '$.id', kind: 'value', mock: 'r', target: 's' } as never]));
  const [a, b] = j.records();
  assert.is(a.drift?.length, 1);
  assert.is(b.drift, undefined);
});

test('entry alike: a path over the body limit is cut in the entry, and the next alike entry shares the cut one', () => {
  const long = '/api/v3/' + 'p'.repeat(200);
  const j = new Journal({ bodyBytes: 64 });
  j.add(record({ path: long }));
  j.add(record({ path: long }));
  const [a, b] = j.records();
  assert.is(a.path, long.slice(0, 64));
  assert.is(b.path, a.path);
  assert.is(alikeOf(b as StoredEntry), alikeOf(a as StoredEntry));
});

test.run();
