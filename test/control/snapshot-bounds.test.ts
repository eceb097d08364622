// Named snapshots' bounds at their edges (count and bytes, a save under a held name, room back after a delete), and
// the size count a save uses: exact up to the room left, given up past it without building the state's text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NamedSnapshots } from '../../src/control/snapshots.js';
import type { Snapshot } from '../../src/storage/store.js';
import { jsonLengthUpTo } from '../../src/json-length.js';
import { freshMock } from '../helpers/app.js';

const SNAP = {} as Snapshot;
const info = (name: string, bytes: number) => ({ name, created_at: '2026-11-20T12:00:00.000Z', bytes });
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { body(): unknown }).body();
  }
  throw new Error('not refused');
};
const LIMIT = (name: string) => ({
  detail: {
    reason_code: 'snapshot_limit',
    message: 'A mock holds at most 2 snapshots of 100 bytes in all; delete one first',
    affected_resource: `snapshot:${name}`,
  },
});

test('snapshot bytes: exactly the bound is kept, one byte past it is 409 and nothing changes', () => {
  const s = new NamedSnapshots({ count: 2, bytes: 100 });
  s.save(info('a', 60), SNAP);
  assert.equal(
    refusal(() => s.save(info('b', 41), SNAP)),
    LIMIT('b'),
  );
  assert.equal(s.list(), [info('a', 60)]);
  assert.is(s.roomFor('b'), 40);
  s.save(info('b', 40), SNAP);
  assert.equal(s.list(), [info('a', 60), info('b', 40)]);
  assert.is(s.roomFor('c'), 0);
});

test('snapshot bytes: a save under a held name counts the one it replaces as free', () => {
  const s = new NamedSnapshots({ count: 2, bytes: 100 });
  s.save(info('a', 60), SNAP);
  s.save(info('b', 40), SNAP);
  assert.is(s.roomFor('a'), 60);
  s.save(info('a', 60), SNAP);
  assert.equal(
    refusal(() => s.save(info('a', 61), SNAP)),
    LIMIT('a'),
  );
  assert.equal(s.list(), [info('a', 60), info('b', 40)]);
  s.save(info('a', 10), SNAP);
  assert.is(s.roomFor('c'), 50);
});

test('snapshot count: the second is kept, the third refused; a delete or a clear gives the room back', () => {
  const s = new NamedSnapshots({ count: 2, bytes: 100 });
  s.save(info('a', 1), SNAP);
  s.save(info('b', 1), SNAP);
  assert.equal(
    refusal(() => s.save(info('c', 1), SNAP)),
    LIMIT('c'),
  );
  s.save(info('b', 2), SNAP);
  s.delete('a');
  assert.is(s.roomFor('c'), 98);
  s.save(info('c', 1), SNAP);
  assert.equal(
    s.list().map((i) => i.name),
    ['b', 'c'],
  );
  s.clear();
  assert.is(s.roomFor('x'), 100);
  assert.equal(s.list(), []);
});

test('json length: equals JSON.stringify(...).length for states and odd values, whatever the bound above it', () => {
  const values: unknown[] = [
    { clock: { now: 'x' }, settings: null, runs: [{ id: 'r', n: 1 }, { id: 'é"\\\n' }], none: [] },
    { a: undefined, b: () => 1, c: [undefined, () => 1, Symbol('s')], d: new Date(0), e: { f: { g: [1, 2] } } },
    [],
    {},
    [[[]], [{}], 'x'],
    'text',
    42,
    null,
  ];
  for (const v of values) {
    const n = JSON.stringify(v).length;
    assert.is(jsonLengthUpTo(v, n), n, JSON.stringify(v));
    assert.is(jsonLengthUpTo(v, Number.MAX_SAFE_INTEGER), n);
  }
});

test('json length: past the bound it stops, stringifying no record after the one that passed it', () => {
  let stringified = 0;
  const record = { toJSON: () => (stringified++, { id: 'x'.repeat(8) }) };
  const state = { clock: 1, runs: Array.from({ length: 1000 }, () => record) };
  // Each record is {"id":"xxxxxxxx"} (17 characters) and a comma.
  const counted = jsonLengthUpTo(state, 100);
  assert.ok(counted > 100, String(counted));
  assert.ok(stringified <= 6, `${stringified} records stringified`);
});

test('a saved snapshot lists the bytes of its state as JSON text', async () => {
  const { mock, http } = await freshMock();
  const expected = JSON.stringify(mock.store.toData()).length;
  const saved = (await http.post('/_mock/snapshots').send({ name: 'demo' }).expect(201)).body;
  assert.equal(saved, { name: 'demo', created_at: (await http.get('/_mock/clock')).body.now, bytes: expected });
});

test.run();
