// Journals whose entries interleave in one shared order: each reads, finds, drifts and clears only its own entries.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Journal } from '../../src/control/journal.js';
import { JournalBudget } from '../../src/control/journal-budget.js';
import { plainGet } from '../helpers/journal-records.js';

/** Each entry counts 512 bytes of overhead, its path (`/a/1` is 4 characters) and nothing else. */
const paths = (j: Journal) => j.summaries().map((e) => e.path);

/** Three journals taking turns `rounds` times: A (bounded to 2 entries), B and C (bounded to 4), sharing `budget`. */
function interleaved(rounds: number, budget = new JournalBudget(1 << 30)) {
  const a = new Journal({ entries: 2 }, undefined, budget);
  const b = new Journal({ entries: 4 }, undefined, budget);
  const c = new Journal({ entries: 4 }, undefined, budget);
  for (let i = 1; i <= rounds; i++)
    for (const [name, j] of [
      ['a', a],
      ['b', b],
      ['c', c],
    ] as const)
      j.add(plainGet(`/${name}/${i}`));
  return { a, b, c, budget };
}

test('journal order: journals taking turns each keep their own newest entries, by their own bounds', () => {
  const { a, b, c, budget } = interleaved(6);
  assert.equal(paths(a), ['/a/5', '/a/6']);
  assert.equal(paths(b), ['/b/3', '/b/4', '/b/5', '/b/6']);
  assert.equal(paths(c), ['/c/3', '/c/4', '/c/5', '/c/6']);
  assert.equal([a.size, b.size, c.size], [2, 4, 4]);
  assert.equal([a.evicted, b.evicted, c.evicted], [4, 2, 2]);
  assert.equal([a.left, b.left, c.left], [4, 2, 2]);
  assert.is(budget.entries, 10);
  assert.is(budget.used, a.bytes + b.bytes + c.bytes);
  assert.is(a.bytes, 2 * (512 + 4));
});

test('journal order: get and holds find an entry by id among the other journals, and nothing once it has gone', () => {
  const { a, b } = interleaved(6);
  assert.equal(
    [0, 1, 4, 5, 6, 7].map((id) => a.get(id)?.path ?? null),
    [null, null, null, '/a/5', '/a/6', null],
  );
  assert.equal(
    [2, 3, 6, 7].map((id) => b.get(id)?.path ?? null),
    [null, '/b/3', '/b/6', null],
  );
  assert.equal(
    [4, 5, 6, 7].map((id) => a.holds(id)),
    [false, true, true, false],
  );
});

test('journal order: after and limit count within the journal, not the shared order', () => {
  const { b } = interleaved(6);
  const ids = (filter: Parameters<Journal['list']>[0]) => b.list(filter).map((e) => e.id);
  assert.equal(ids({ after: 2 }), [3, 4, 5, 6]);
  assert.equal(ids({ after: 3 }), [4, 5, 6]);
  assert.equal(ids({ after: 5 }), [6]);
  assert.equal(ids({ after: 6 }), []);
  assert.equal(ids({ limit: 1 }), [6]);
  assert.equal(ids({ after: 3, limit: 2 }), [5, 6]);
  assert.equal(ids({ path: '/b/4' }), [4]);
});

test('journal order: drift lands on the entry of the journal named, not on an entry of another with the same id', () => {
  const { a, b, c } = interleaved(6);
  const drift = [{ field: 'status', mock: 200, target: 500 }];
  const before = c.bytes;
  assert.ok(c.addDrift(5, drift));
  assert.equal(c.get(5)?.drift, drift);
  assert.is(c.bytes, before + JSON.stringify(drift).length);
  assert.is(b.get(5)?.drift, undefined);
  assert.is(a.get(5)?.drift, undefined);
  assert.is(c.addDrift(2, drift), false, 'an entry that has gone takes no drift');
  assert.is(c.addDrift(7, drift), false, 'nor one not yet written');
});

test('journal order: clearing one journal leaves the others whole and gives its bytes back', () => {
  const { a, b, c, budget } = interleaved(6);
  const kept = a.bytes + c.bytes;
  assert.is(b.clear(), 4);
  assert.equal(paths(b), []);
  assert.equal(paths(a), ['/a/5', '/a/6']);
  assert.equal(paths(c), ['/c/3', '/c/4', '/c/5', '/c/6']);
  assert.is(budget.entries, 6);
  assert.is(budget.used, kept);
  // It goes on numbering, and its next entry is read alone.
  b.add(plainGet('/b/7'));
  assert.equal(
    b.list().map((e) => [e.id, e.path]),
    [[7, '/b/7']],
  );
});

test('journal order: after the order is rebuilt each journal still reads, finds and drops its own entries', () => {
  // 400 rounds of 3 adds: the order passes 1,024 slots with 10 held and is rebuilt (more than once).
  const { a, b, c, budget } = interleaved(400);
  assert.ok(budget.slots < 1024, `rebuilt (${budget.slots} slots)`);
  assert.equal(paths(a), ['/a/399', '/a/400']);
  assert.equal(paths(b), ['/b/397', '/b/398', '/b/399', '/b/400']);
  assert.is(c.get(398)?.path, '/c/398');
  a.add(plainGet('/a/401'));
  assert.equal(paths(a), ['/a/400', '/a/401']);
  assert.equal(paths(c), ['/c/397', '/c/398', '/c/399', '/c/400']);
});

test('journal order: the budget lets the oldest entry of all go in turn across journals, whatever their own bounds', () => {
  // Room for 5 entries of 516 bytes: the sixth add lets the first go.
  const budget = new JournalBudget(5 * 516);
  const { a, b, c } = interleaved(2, budget);
  assert.is(budget.entries, 5);
  assert.equal(paths(a), ['/a/2']);
  assert.equal(paths(b), ['/b/1', '/b/2']);
  assert.equal(paths(c), ['/c/1', '/c/2']);
  assert.equal([a.evicted, a.get(1), a.get(2)?.path], [1, undefined, '/a/2']);
  // A restored journal holds only what it was given, among the others' entries.
  // Two entries for its one: the budget then lets the oldest of all (B's first) go.
  a.restore(
    [
      { ...plainGet('/a/q'), id: 9 },
      { ...plainGet('/a/r'), id: 10 },
    ],
    12,
  );
  assert.equal(
    a.list().map((e) => [e.id, e.path]),
    [
      [9, '/a/q'],
      [10, '/a/r'],
    ],
  );
  assert.equal([a.next, a.get(9)?.path, a.get(11)], [12, '/a/q', undefined]);
  assert.is(budget.entries, 5);
  assert.equal(paths(b), ['/b/2']);
  assert.equal(paths(c), ['/c/1', '/c/2']);
});

test('journal order: an entry grown by drift gives back its grown size when the budget lets it go', () => {
  // Room for 4 entries of 516 bytes and a little drift.
  const budget = new JournalBudget(4 * 516 + 100);
  const a = new Journal({}, undefined, budget);
  const b = new Journal({}, undefined, budget);
  a.add(plainGet('/a/1'));
  b.add(plainGet('/b/1'));
  const drift = [{ field: 'status', mock: 200, target: 500 }];
  const grown = JSON.stringify(drift).length;
  assert.ok(a.addDrift(1, drift));
  assert.is(budget.used, 2 * 516 + grown);
  b.add(plainGet('/b/2'));
  b.add(plainGet('/b/3'));
  assert.is(budget.used, 4 * 516 + grown);
  // The fifth entry is over the budget: A's first (with its drift) is the oldest of all and goes, bytes and all.
  b.add(plainGet('/b/4'));
  assert.equal([a.size, a.bytes, a.evicted], [0, 0, 1]);
  assert.is(budget.used, 4 * 516);
  assert.is(budget.used, b.bytes);
  assert.is(budget.entries, 4);
});

test.run();
