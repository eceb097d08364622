// A child run with --expose-gc: once the budget lets go an entry that a rebuild of the shared order moved down, what its
// request left (its headers here) is collectable at once, whether the entry waits to be filled again or is dropped;
// prints JSON on stdout.
import { Journal } from '../../src/control/journal.js';
import { JournalBudget } from '../../src/control/journal-budget.js';
import { plainGet } from './journal-records.js';

const gc = (globalThis as { gc?: () => void }).gc!;
// About 100 entries held: a rebuild comes at 1,024 slots, so it moves the newest down by over 900 slots.
const budget = new JournalBudget(100_000);
const journals = Array.from({ length: 10 }, () => new Journal({}, undefined, budget));
let i = 0;
// Headers of their own per request: no two entries share them, so the watched headers are one entry's alone.
const add = () => {
  const j = i++ % journals.length;
  return { j, id: journals[j].add({ ...plainGet('/x', 'r'.repeat(488)), requestHeaders: { n: String(i) } }) };
};
for (let n = 0; n < 3000; n++) add();
/**
 * Watches the newest entry just before a rebuild (the rebuild moves it down the most), then adds until the budget lets
 * it go, and no more. In a function of its own: no variable of this module's frame (kept across its awaits) holds it.
 */
function watch() {
  let watched: WeakRef<object> | undefined;
  let last = add();
  for (let n = 0; n < 5000 && !watched; n++) {
    const headers = budget.entryAt(budget.slots - 1).requestHeaders;
    const before = budget.slots;
    const next = add();
    if (budget.slots < before) watched = new WeakRef(headers);
    else last = next;
  }
  let adds = 0;
  while (watched && journals[last.j].holds(last.id)) {
    add();
    adds++;
  }
  return { watched, last, adds };
}
const { watched, last, adds } = watch();
// A WeakRef keeps its target for the rest of the turn it was made or read in: collected in a later one.
for (let n = 0; n < 4; n++) {
  await new Promise((r) => setImmediate(r));
  gc();
}
process.stdout.write(
  JSON.stringify({ rebuilt: watched !== undefined, letGo: !journals[last.j].holds(last.id), collected: watched?.deref() === undefined, adds: adds > 0 }),
);
