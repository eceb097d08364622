// Entries the order lets go are filled again with later requests: steady traffic makes at most the held entries and
// the waiting spares (16) in objects, the newest is never emptied, and readers outside the journal get copies that no
// later request changes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Journal } from '../../src/control/journal.js';
import { JournalBudget } from '../../src/control/journal-budget.js';
import { plainGet } from '../helpers/journal-records.js';

/** Five digits: every entry counts the same bytes. */
const k = (n: number) => String(n).padStart(5, '0');
/** A request of its own: headers no other entry shares, and a path and status that tell it apart. */
const record = (n: number, body = 'r'.repeat(100)) => ({
  ...plainGet(`/x/${k(n)}`, body),
  atMs: 1_700_000_000_000 + n,
  duration_ms: n / 1000,
  status: 200 + (n % 3),
  requestHeaders: { n: k(n) },
});
/** The bytes one such entry counts, read off a budget of its own. */
const SIZE = (() => {
  const b = new JournalBudget(Infinity);
  new Journal({}, undefined, b).add(record(1));
  return b.used;
})();

test('entry reuse: 3,000 adds over a budget of 100 entries make at most 100 + 16 + 1 entry objects', () => {
  const budget = new JournalBudget(100 * SIZE);
  const journals = Array.from({ length: 5 }, () => new Journal({}, undefined, budget));
  const made = new Set<object>();
  for (let n = 0; n < 3000; n++) {
    journals[n % 5].add(record(n));
    made.add(budget.entryAt(budget.slots - 1));
  }
  assert.is(budget.entries, 100);
  assert.ok(made.size <= 117, `${made.size} objects`);
  // Each journal holds its newest 20, each with its own request's values.
  const held = journals[2].records();
  assert.equal(
    held.map((e) => [e.id, e.path, e.status, e.atMs, e.duration_ms, e.requestHeaders]),
    Array.from({ length: 20 }, (_, i) => {
      const n = 2 + 5 * (580 + i);
      return [581 + i, `/x/${k(n)}`, 200 + (n % 3), 1_700_000_000_000 + n, n / 1000, { n: k(n) }];
    }),
  );
});

test('entry reuse: at most 16 let-go entries wait; one large entry pushing 40 out leaves 16, and the next add fills one', () => {
  const budget = new JournalBudget(50 * SIZE);
  const small = new Journal({}, undefined, budget);
  const large = new Journal({}, undefined, budget);
  for (let n = 0; n < 50; n++) small.add(record(n));
  assert.equal([budget.entries, budget.spares], [50, 0]);
  const before = new Set(Array.from({ length: budget.slots }, (_, at) => budget.entryAt(at)));
  large.add(record(50, 'r'.repeat(40 * SIZE)));
  assert.is(budget.spares, 16);
  assert.ok(small.size < 11, `${small.size} small entries held`);
  // The next add fills a waiting one (and lets the oldest go to wait in its place).
  small.add(record(51));
  assert.ok(before.has(budget.entryAt(budget.slots - 1)), 'the new entry is one let go');
  assert.is(budget.spares, 16);
  assert.equal(small.records().at(-1)!.path, `/x/${k(51)}`);
});

test('entry reuse: a clear lets its entries wait to be filled, but never the newest of all', () => {
  const budget = new JournalBudget(Infinity);
  const a = new Journal({}, undefined, budget);
  for (let n = 0; n < 3; n++) a.add(record(n));
  const newest = budget.newest!;
  a.clear();
  assert.is(budget.spares, 2);
  // The newest keeps what it held: the next entry compares its own with it.
  assert.equal([newest.id, newest.path, newest.requestHeaders], [3, `/x/${k(2)}`, { n: k(2) }]);
  const b = new Journal({}, undefined, budget);
  b.add(record(7));
  assert.equal(
    b.records().map((e) => [e.id, e.path]),
    [[1, `/x/${k(7)}`]],
  );
  assert.is(budget.spares, 1);
});

test('entry reuse: records read before their entries are filled again keep their values', () => {
  const budget = new JournalBudget(10 * SIZE);
  const j = new Journal({}, undefined, budget);
  for (let n = 0; n < 10; n++) j.add(record(n));
  const read = j.records();
  const before = JSON.parse(JSON.stringify(read));
  for (let n = 10; n < 40; n++) j.add(record(n));
  assert.equal(j.records()[0].id, 31);
  assert.equal(JSON.parse(JSON.stringify(read)), before);
  assert.equal(
    read.map((e) => e.path),
    Array.from({ length: 10 }, (_, n) => `/x/${k(n)}`),
  );
});

test.run();
