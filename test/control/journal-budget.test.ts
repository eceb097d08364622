// The journals' shared order and byte budget: past it the oldest entry of all goes, and the order stays bounded by what is held.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Journal } from '../../src/control/journal.js';
import { JournalBudget } from '../../src/control/journal-budget.js';
import { plainGet } from '../helpers/journal-records.js';

/** Each entry counts 512 bytes of overhead, its path and its answer text: 512 + 2 + 488 = 1,000 bytes. */
const ENTRY = 1000;
const record = () => plainGet('/x', 'r'.repeat(ENTRY - 512 - 2));
const ids = (j: Journal) => j.summaries().map((e) => e.id);

test('journal budget: past the budget the oldest entry of all goes, whichever journal holds it', () => {
  const budget = new JournalBudget(3 * ENTRY);
  const a = new Journal({}, undefined, budget);
  const b = new Journal({}, undefined, budget);
  a.add(record());
  b.add(record());
  a.add(record());
  assert.is(budget.entries, 3);
  assert.is(budget.used, 3 * ENTRY);
  // At the budget nothing goes; one entry more lets A's first go, not B's.
  b.add(record());
  assert.equal(ids(a), [2]);
  assert.equal(ids(b), [1, 2]);
  assert.is(budget.entries, 3);
  assert.is(budget.used, 3 * ENTRY);
  assert.is(a.evicted, 1);
  assert.is(b.evicted, 0);
  // Then B's first, which is now the oldest of all.
  a.add(record());
  assert.equal(ids(a), [2, 3]);
  assert.equal(ids(b), [2]);
});

test('journal budget: the newest entry stays even when it alone is over the budget', () => {
  const budget = new JournalBudget(ENTRY - 1);
  const a = new Journal({}, undefined, budget);
  const b = new Journal({}, undefined, budget);
  a.add(record());
  assert.equal(ids(a), [1]);
  b.add(record());
  assert.equal(ids(a), []);
  assert.equal(ids(b), [1]);
  assert.is(budget.entries, 1);
  assert.is(budget.used, ENTRY);
});

test('journal budget: a journal that lets entries go by its own bound gives their bytes back', () => {
  const budget = new JournalBudget(100 * ENTRY);
  const a = new Journal({ entries: 2 }, undefined, budget);
  for (let i = 0; i < 5; i++) a.add(record());
  assert.equal(ids(a), [4, 5]);
  assert.is(budget.entries, 2);
  assert.is(budget.used, 2 * ENTRY);
  a.clear();
  assert.is(budget.entries, 0);
  assert.is(budget.used, 0);
});

/** After each add the order holds fewer than 1,024 slots, or fewer than twice the entries held. */
function assertBounded(journals: Journal[], budget: JournalBudget, adds: number) {
  let most = 0;
  for (let i = 0; i < adds; i++) {
    journals[i % journals.length].add(record());
    if (budget.slots >= Math.max(1024, 2 * budget.entries)) assert.unreachable(`add ${i + 1}: ${budget.slots} slots for ${budget.entries} entries`);
    most = Math.max(most, budget.slots);
  }
  return most;
}

test('journal budget: when the budget lets entries go, its order stays bounded by what is held, not by the adds', () => {
  // 100 journals round-robin, the budget holding 50 entries: 100,000 adds, each past the budget.
  const budget = new JournalBudget(50 * ENTRY);
  const journals = Array.from({ length: 100 }, () => new Journal({}, undefined, budget));
  const most = assertBounded(journals, budget, 100_000);
  assert.is(budget.entries, 50);
  // Rebuilt once its slots reach 1,024 (50 held): so at most 1,023 are seen after an add, not one per add.
  assert.is(most, 1023, 'the order is cut in batches, not on every add');
  // Every journal still holds exactly its own newest entries: the last 50 adds went to journals 50..99.
  for (let k = 0; k < 100; k++) assert.equal(ids(journals[k]), k < 50 ? [] : [1000], `journal ${k}`);
});

test('journal budget: when journals let entries go by their own bound, the order stays bounded too', () => {
  const budget = new JournalBudget(1 << 30);
  const journals = Array.from({ length: 10 }, () => new Journal({ entries: 3 }, undefined, budget));
  assertBounded(journals, budget, 50_000);
  assert.is(budget.entries, 30);
  assert.is(budget.used, 30 * ENTRY);
});

test('journal budget: a large budget held whole keeps every slot (nothing to cut)', () => {
  const budget = new JournalBudget(1 << 30);
  const a = new Journal({ entries: 10_000 }, undefined, budget);
  for (let i = 0; i < 5000; i++) a.add(record());
  assert.is(budget.entries, 5000);
  assert.is(budget.slots, 5000);
});

test('journal budget: drift added to an entry of one journal lets the oldest entry of another go once past the budget', () => {
  const budget = new JournalBudget(3 * ENTRY);
  const a = new Journal({}, undefined, budget);
  const b = new Journal({}, undefined, budget);
  a.add(record());
  b.add(record());
  b.add(record());
  assert.is(budget.used, 3 * ENTRY);
  // One byte of drift on B's newest entry: the budget is passed, so the oldest entry of all (A's) goes.
  const drift = [{ field: 'status', mock: 200, target: 500 }];
  const bytes = JSON.stringify(drift).length;
  assert.ok(b.addDrift(2, drift));
  assert.equal(ids(a), []);
  assert.equal(ids(b), [1, 2]);
  assert.is(budget.used, 2 * ENTRY + bytes);
  assert.is(budget.entries, 2);
});

test('journal budget: the order is rebuilt exactly when its slots reach 1,024 and twice the entries held', () => {
  // One entry held: rebuilt at the 1,024th add (not before, not after), down to the one held.
  const one = new JournalBudget(1 << 30);
  const a = new Journal({ entries: 1 }, undefined, one);
  for (let i = 0; i < 1023; i++) a.add(record());
  assert.is(one.slots, 1023);
  a.add(record());
  assert.is(one.slots, 1);
  // 600 held: 1,024 slots are not yet twice 600, so the order waits for 1,200.
  const many = new JournalBudget(1 << 30);
  const b = new Journal({ entries: 600 }, undefined, many);
  for (let i = 0; i < 1199; i++) b.add(record());
  assert.is(many.slots, 1199);
  b.add(record());
  assert.is(many.slots, 600);
  assert.is(many.entries, 600);
});

test('journal budget: a rebuilt order keeps the entries still held, oldest first, so the budget lets them go in turn', () => {
  const budget = new JournalBudget(3 * ENTRY);
  const a = new Journal({ entries: 1 }, undefined, budget);
  const b = new Journal({}, undefined, budget);
  b.add(record());
  b.add(record());
  // A keeps its newest only: 1,022 adds make 1,024 slots with 3 held, and the order is rebuilt to those 3.
  for (let i = 0; i < 1022; i++) a.add(record());
  assert.is(budget.slots, 3);
  assert.is(budget.used, 3 * ENTRY);
  // Past the budget: B's first is the oldest held, then B's second, then A's newest.
  b.add(record());
  assert.equal(ids(b), [2, 3]);
  assert.equal(ids(a), [1022]);
  b.add(record());
  assert.equal(ids(b), [3, 4]);
  b.add(record());
  assert.equal(ids(a), []);
  assert.equal(ids(b), [3, 4, 5]);
  assert.is(budget.used, 3 * ENTRY);
});

test('journal budget: slots the budget let go are cut off once they reach 1,024 and as many as the rest', () => {
  // 1,024 entries held and one let go per add: after 2,048 adds the first 1,024 slots are let go, and they are cut.
  const budget = new JournalBudget(1024 * ENTRY);
  const a = new Journal({ entries: 5000 }, undefined, budget);
  for (let i = 0; i < 2047; i++) a.add(record());
  assert.is(budget.slots, 2047);
  a.add(record());
  assert.is(budget.slots, 1024);
  assert.is(budget.entries, 1024);
  assert.equal(ids(a).slice(0, 2), [1025, 1026]);
});

test.run();
