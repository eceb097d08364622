// The shared order keeps its arrays: rebuilt in place and grown only when full, so steady traffic makes no new arrays,
// and a rebuild leaves no entry or journal in the slots past the order's end.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Journal } from '../../src/control/journal.js';
import { JournalBudget } from '../../src/control/journal-budget.js';
import { plainGet } from '../helpers/journal-records.js';

const record = () => plainGet('/x', 'r'.repeat(488));
/** The bytes one such entry counts, read off a budget of its own. */
const SIZE = (() => {
  const b = new JournalBudget(Infinity);
  new Journal({}, undefined, b).add(record());
  return b.used;
})();

test('order reuse: capacity starts at 1,024 and doubles only when the slots fill it', () => {
  const budget = new JournalBudget(Infinity);
  const j = new Journal({ entries: 1_000_000 }, undefined, budget);
  assert.is(budget.capacity, 0);
  j.add(record());
  assert.is(budget.capacity, 1024);
  for (let i = 1; i < 1024; i++) j.add(record());
  assert.equal([budget.slots, budget.capacity], [1024, 1024]);
  j.add(record());
  assert.equal([budget.slots, budget.capacity], [1025, 2048]);
  // Every entry kept, in order, across the growth.
  assert.equal(
    j.summaries().map((e) => e.id),
    Array.from({ length: 1025 }, (_, i) => i + 1),
  );
});

test('order reuse: steady traffic over 100 journals at the budget keeps one capacity through many rebuilds', () => {
  const budget = new JournalBudget(3000 * SIZE);
  const journals = Array.from({ length: 100 }, () => new Journal({}, undefined, budget));
  const add = (i: number) => journals[i % 100].add(record());
  for (let i = 0; i < 10_000; i++) add(i);
  const capacity = budget.capacity;
  let rebuilds = 0;
  for (let i = 10_000; i < 40_000; i++) {
    const before = budget.slots;
    add(i);
    if (budget.slots < before) rebuilds++;
  }
  assert.is(budget.capacity, capacity);
  assert.ok(rebuilds >= 5, `${rebuilds} rebuilds`);
  // 3,000 held (the budget), under twice that in slots, and room for at most twice the slots a rebuild allows.
  assert.is(budget.entries, 3000);
  assert.ok(capacity <= 2 * 2 * 3000, `capacity ${capacity}`);
  // Each journal holds its 30 newest, in order.
  assert.equal(
    journals[7].summaries().map((e) => e.id),
    Array.from({ length: 30 }, (_, i) => 371 + i),
  );
});

test('order reuse: after each rebuild every slot past the order end is empty', () => {
  const budget = new JournalBudget(100 * SIZE);
  const journals = Array.from({ length: 10 }, () => new Journal({}, undefined, budget));
  let rebuilds = 0;
  for (let i = 0; i < 5000; i++) {
    const before = budget.slots;
    journals[i % 10].add(record());
    if (budget.slots >= before) continue;
    rebuilds++;
    for (let at = budget.slots; at < budget.capacity; at++) assert.is(budget.entryAt(at), undefined, `slot ${at} of ${budget.capacity}`);
  }
  assert.ok(rebuilds >= 3, `${rebuilds} rebuilds`);
});

test('order reuse: once the budget lets an entry go, its request parts can be collected (child with --expose-gc)', () => {
  const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('../helpers/journal-let-go.ts', import.meta.url))], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.is(out.status, 0, out.stderr);
  assert.equal(JSON.parse(out.stdout), { rebuilt: true, letGo: true, collected: true, adds: true });
});

test.run();
