// Journals sharing one order, against a plain model: after any sequence of adds, clears and drift, every journal holds
// exactly the entries the rules keep (its own bounds, then the budget's oldest of all), with the counts and bytes they add.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { Journal } from '../../src/control/journal.js';
import { JournalBudget } from '../../src/control/journal-budget.js';
import { plainGet } from '../helpers/journal-records.js';
import { propertyRuns } from '../runner/config.mjs';

/** An entry counts 512 bytes, its path (`/j0` to `/j3`: 3 characters) and its answer text. */
const sizeOf = (body: number) => 512 + 3 + body;
const DRIFT = [{ field: 'status', mock: 200, target: 500 }];
const DRIFT_BYTES = JSON.stringify(DRIFT).length;

interface Held {
  journal: number;
  id: number;
  size: number;
}

/** The rules, kept the plain way: one list oldest first, searched and spliced. */
class Model {
  order: Held[] = [];
  next: number[];
  evicted: number[];
  newest: Held | undefined;
  constructor(
    readonly limits: { entries: number; bytes: number }[],
    readonly budget: number,
  ) {
    this.next = limits.map(() => 1);
    this.evicted = limits.map(() => 0);
  }
  own = (j: number) => this.order.filter((e) => e.journal === j);
  bytesOf = (j: number) => this.own(j).reduce((n, e) => n + e.size, 0);
  total = () => this.order.reduce((n, e) => n + e.size, 0);
  private dropOwnOldest(j: number) {
    this.order.splice(
      this.order.findIndex((e) => e.journal === j),
      1,
    );
    this.evicted[j]++;
  }
  private trim(j: number, byCount: boolean) {
    const l = this.limits[j];
    while (this.own(j).length > 1 && ((byCount && this.own(j).length > l.entries) || this.bytesOf(j) > l.bytes)) this.dropOwnOldest(j);
  }
  /** The budget: the oldest of all goes, never the entry added last. */
  private evict() {
    while (this.total() > this.budget && this.order.length > 0 && this.order[0] !== this.newest) this.evicted[this.order.shift()!.journal]++;
  }
  add(j: number, body: number) {
    const e = { journal: j, id: this.next[j]++, size: sizeOf(body) };
    this.order.push(e);
    this.newest = e;
    this.trim(j, true);
    this.evict();
  }
  clear(j: number) {
    const n = this.own(j).length;
    this.order = this.order.filter((e) => e.journal !== j);
    this.evicted[j] = 0;
    return n;
  }
  drift(j: number, id: number) {
    const e = this.order.find((x) => x.journal === j && x.id === id);
    if (!e) return false;
    e.size += DRIFT_BYTES;
    this.evict();
    this.trim(j, false);
    return true;
  }
}

const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('add' as const), j: fc.nat(3), body: fc.nat(400) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const), n: fc.integer({ min: 0, max: 1500 }), body: fc.nat(400) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), j: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drift' as const), j: fc.nat(3), back: fc.integer({ min: -1, max: 6 }) }) },
);
const limits = fc.record({ entries: fc.integer({ min: 1, max: 40 }), bytes: fc.integer({ min: 600, max: 40_000 }) });

test('property: journals sharing an order keep what the model keeps, after any adds, bursts, clears and drift', () => {
  fc.assert(
    fc.property(
      fc.array(limits, { minLength: 4, maxLength: 4 }),
      fc.integer({ min: 600, max: 80_000 }),
      fc.array(op, { maxLength: 40 }),
      (bounds, bytes, ops) => {
        const budget = new JournalBudget(bytes);
        const journals = bounds.map((l) => new Journal(l, undefined, budget));
        const model = new Model(bounds, bytes);
        const add = (j: number, body: number) => {
          journals[j].add(plainGet(`/j${j}`, body === 0 ? null : 'b'.repeat(body)));
          model.add(j, body);
          // After every add the order holds fewer than 1,024 slots, or fewer than twice the entries held.
          if (budget.slots >= 1024 && budget.slots >= 2 * budget.entries) assert.unreachable(`${budget.slots} slots for ${budget.entries} held`);
        };
        for (const o of ops) {
          if (o.kind === 'add') add(o.j, o.body);
          else if (o.kind === 'burst') for (let i = 0; i < o.n; i++) add(i % 4, o.body);
          else if (o.kind === 'clear') assert.is(journals[o.j].clear(), model.clear(o.j));
          else {
            // The newest held id counted back, or (-1) one past the newest: an id never written.
            const id = journals[o.j].next - 1 - o.back;
            assert.is(journals[o.j].addDrift(id, DRIFT), model.drift(o.j, id), `drift on ${o.j}:${id}`);
          }
          for (let j = 0; j < 4; j++) {
            const held = model.own(j);
            assert.equal(
              journals[j].summaries().map((e) => e.id),
              held.map((e) => e.id),
              `journal ${j} after ${o.kind}`,
            );
            assert.equal(
              [journals[j].size, journals[j].bytes, journals[j].evicted],
              [held.length, model.bytesOf(j), model.evicted[j]],
              `journal ${j}'s counts`,
            );
            assert.is(journals[j].left, journals[j].next - 1 - held.length);
            // A poller's read: the entries after one held (the middle one), and the newest two of those.
            const mid = held[held.length >> 1];
            if (mid) {
              const later = held.filter((e) => e.id > mid.id).map((e) => e.id);
              assert.equal(
                journals[j].summaries({ after: mid.id }).map((e) => e.id),
                later,
              );
              assert.equal(
                journals[j].summaries({ after: mid.id, limit: 2 }).map((e) => e.id),
                later.slice(-2),
              );
            }
            const newest = held[held.length - 1];
            if (newest) assert.is(journals[j].get(newest.id)?.id, newest.id);
            if (held[0]) assert.is(journals[j].get(held[0].id - 1), undefined);
          }
          assert.equal([budget.entries, budget.used], [model.order.length, model.total()], 'the budget counts what is held');
        }
      },
    ),
    { numRuns: propertyRuns() },
  );
});

test.run();
