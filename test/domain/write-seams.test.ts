// The domain cannot read around a write's transaction: its write functions, the simulation's event handlers and the
// control surface's domain writes get WriteDeps, whose store only runs transactions and which carries no clock; the
// simulation's own writes (settings, loads, close, step, run, clock moves) and the control writes of whole states
// (reset, fixtures, imports, restores, bundles) get a store face with no reads and no clock (checked by the type
// checker below), and no domain module names the Store or the whole Deps. Time is read through the transaction too,
// and a clock move is made on the transaction's clock.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { WriteDeps } from '../../src/deps.js';
import type { ReadView, RecordReader, Transaction, Writer } from '../../src/storage/store.js';
import { MockClock, clockMove } from '../../src/domain/clock.js';
import type { ClockState } from '../../src/schemas/state.js';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { inProject } from '../../src/domain/queries.js';
import { DEMO } from '../helpers/demo.js';
import type { RunContext } from '../../src/simulation/runs.js';
import type { Scheduler } from '../../src/simulation/sources.js';
import { DomainControl } from '../../src/mock-control/domain-control.js';
import type { Orchestrated } from '../../src/simulation/orchestration.js';
import type { StateControl } from '../../src/mock-control/state-control.js';
import type { SnapshotControl } from '../../src/mock-control/snapshot-control.js';
import type { ClockControl } from '../../src/mock-control/clock-control.js';
import type { ReproControl } from '../../src/mock-control/repro-control.js';

/** What the control surface's domain writes are given. */
type ControlWriteDeps = ConstructorParameters<typeof DomainControl>[0];

/** Never called: `npm run typecheck` fails when one of these lines compiles (a read around the transaction). */
export function aWriteCannotReadAroundItsTransaction(deps: WriteDeps, projectId: string): Promise<unknown> {
  return deps.store.transact((tx: Transaction) => {
    // @ts-expect-error the write face has no reads: a write reads through its transaction
    deps.store.get('runs', 'x');
    // @ts-expect-error nor lists
    deps.store.values('runs');
    // @ts-expect-error nor counts
    deps.store.count('runs');
    // @ts-expect-error nor derived read indexes
    deps.store.derive('x', [], () => 0);
    // @ts-expect-error nor the stored state's clock
    void deps.store.clock;
    // @ts-expect-error nor the mock clock: a write reads time through its transaction
    void deps.clock;
    // Time as the transaction sees it: an ISO datetime and epoch ms.
    const stamped: [string, number] = [tx.now(), tx.nowMs()];
    void stamped;
    // A query helper takes any reader: the transaction is one.
    return inProject(tx, 'runs', 'x', projectId);
  });
}

/** Never called: the clock over the stored state only reads; a move is made on the clock of a transaction. */
export function aClockMoveIsMadeInItsTransaction(clock: MockClock, tx: Transaction): ClockState[] {
  // @ts-expect-error the stored state's clock cannot compute a move (it would be computed outside the write)
  clock.advanced(1);
  // @ts-expect-error nor a frozen point
  clock.frozenAt('2026-01-01T00:00:00Z');
  // @ts-expect-error nor a rate
  clock.withRate(2);
  // @ts-expect-error nor a running clock
  clock.runningFrom(0);
  const inTx = MockClock.of(tx);
  return [inTx.advanced(1), inTx.frozenAt('2026-01-01T00:00:00Z'), inTx.withRate(2), inTx.runningFrom(0)];
}

/** Never called: the simulation's event handlers and the control surface's domain writes get the same write face. */
export function simulationAndControlWritesReadThroughTheirTransaction(ctx: RunContext, engine: Scheduler, control: ControlWriteDeps): void {
  // @ts-expect-error an event handler cannot read the mock clock: it is stamped with its event's time, read in its transaction
  void ctx.deps.clock;
  // @ts-expect-error nor the store
  ctx.deps.store.get('runs', 'x');
  // @ts-expect-error nor can a source (jobs, retries, traffic) read the clock
  void engine.deps.clock;
  // @ts-expect-error or the store
  engine.deps.store.values('runs');
  // @ts-expect-error a control write (runs, desired state, codes) cannot read the clock
  void control.clock;
  // @ts-expect-error nor the store
  control.store.count('runs');
}

/**
 * Never called: the simulation's writes (configure, load, close, step, run, behaviours, clock moves) are given the
 * engine and the store's write face; reset, fixture loads, imports, restores and clock moves of the control surface
 * the store's whole-state writes. None of them can read the clock, or the store, outside a transaction.
 */
export function orchestrationWritesReadThroughTheirTransaction(
  o: Orchestrated,
  state: ConstructorParameters<typeof StateControl>[0],
  snapshots: ConstructorParameters<typeof SnapshotControl>,
  clock: ConstructorParameters<typeof ClockControl>[0],
  domainSim: ConstructorParameters<typeof DomainControl>[1],
  bundle: ConstructorParameters<typeof ReproControl>,
): void {
  // @ts-expect-error the simulation's writes get no deps (no clock)
  void o.deps;
  // @ts-expect-error nor a clock of their own
  void o.clock;
  // @ts-expect-error the store's write face has no clock
  void o.store.clock;
  // @ts-expect-error nor reads
  o.store.get('runs', 'x');
  // @ts-expect-error nor counts
  o.store.count('simulation_events');
  // @ts-expect-error nor the newest state's clock
  o.store.viewClock();
  // @ts-expect-error the point a bounded write rolls back to is opaque: no clock read through it
  void o.store.snapshot().clock;
  // @ts-expect-error the engine they drive does not hand out its deps
  void o.engine.deps;
  // @ts-expect-error reset, fixture loads and imports get no deps
  void state.deps;
  // @ts-expect-error their store has no clock
  void state.store.clock;
  // @ts-expect-error nor reads
  state.store.values('runs');
  // @ts-expect-error nor the simulation's deps
  void state.sim.deps;
  // @ts-expect-error a restore gets no deps
  void snapshots[0].deps;
  // @ts-expect-error nor a clock through what a save reads: a named snapshot's time is read from the snapshot itself
  void snapshots[1].clock;
  // @ts-expect-error a clock move gets no clock to read: it is computed on its transaction's clock
  void clock.deps;
  // @ts-expect-error nor the simulation's deps
  void clock.sim.deps;
  // @ts-expect-error the domain steering's simulation does not hand out its deps either
  void domainSim.deps;
  // @ts-expect-error a bundle's import gets no deps
  void bundle[0].deps;
  // @ts-expect-error its store has no clock
  void bundle[0].store.clock;
  // @ts-expect-error nor do the export's reads hold a clock
  void bundle[1].clock;
}

/** A reader of the store: what a part that writes is not given (its writes would read around their transactions). */
type ReadersGiven<C extends abstract new (...args: never[]) => unknown> = Extract<ConstructorParameters<C>[number], { get(...args: never[]): unknown }>;
/** `npm run typecheck` fails when the domain steering part (runs, codes, desired state, the simulation) is given a reader. */
export const domainSteeringHoldsNoReader: [ReadersGiven<typeof DomainControl>] extends [never] ? true : never = true;
/** Never called: the domain steering part takes its writes only; a reference an input names is checked in the write. */
export function domainSteeringTakesNoReader(view: ReadView, write: ControlWriteDeps, sim: ConstructorParameters<typeof DomainControl>[1]): DomainControl[] {
  // @ts-expect-error no reader beside its writes (the references a request names are read in the write's transaction)
  const withReader = new DomainControl(view, write, sim);
  // @ts-expect-error nor a reader in place of its writes
  return [withReader, new DomainControl(view, sim), new DomainControl(write, sim)];
}

/** Both faces answer the query helpers' reader. */
export const readers = (tx: Transaction, view: ReadView): RecordReader[] => [tx, view];
/** A store is a writer, and the whole Deps still fits where WriteDeps is asked for. */
export const writer = (view: ReadView & Writer): Writer => view;

const SRC = new URL('../../src/', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

test('no domain module names the Store or the whole Deps, and none reaches deps.store but to run a transaction', () => {
  const domain = files('domain');
  assert.ok(domain.length > 10);
  for (const f of domain) {
    const text = readFileSync(join(SRC, f), 'utf8');
    assert.not.match(text, /\bStore\b(?! *\.)/, `${f} names the Store`);
    assert.not.match(text, /[^\w]Deps\b/, `${f} takes the whole Deps (write functions take WriteDeps)`);
    for (const m of text.matchAll(/deps\.store\.(\w+)/g)) assert.is(m[1], 'transact', `${f}: deps.store.${m[1]}`);
  }
});

test('no domain, control or simulation module moves the clock outside a transaction or reads deps.clock in a write', () => {
  for (const f of [...files('domain'), ...files('control'), ...files('simulation')]) {
    const text = readFileSync(join(SRC, f), 'utf8');
    // Store.setClock takes a state computed beforehand, from a clock read outside the write: moves go through clockMove.
    assert.not.match(text, /store\.setClock\(/, `${f} moves the clock with a state computed outside its transaction`);
    if (f.startsWith('domain')) assert.not.match(text, /deps\.clock\b/, `${f} reads the mock clock outside a transaction`);
  }
});

test("no write operation's handler reads the clock: a write answers the time its transaction read, not a later reading", () => {
  let writes = 0;
  for (const f of files('operations')) {
    // One block per declaration; `method: 'get'` ones are reads, which read the clock as it stands.
    for (const block of readFileSync(join(SRC, f), 'utf8')
      .split(/\bdeclare(?:Control)?\(\{/)
      .slice(1)) {
      const method = /\bmethod: '(\w+)'/.exec(block)?.[1];
      if (method === undefined || method === 'get') continue;
      writes++;
      const op = /operationId: '(\w+)'/.exec(block)?.[1];
      assert.not.match(block, /\.clock\b|\bnowIso\(|\bnowMs\(/, `${f}: ${op} reads the clock outside its write`);
    }
  }
  assert.ok(writes > 30, `only ${writes} write operations found`);
});

test('the transaction reads the clock of its own view: its own move, then the newest state, and the source it was given', async () => {
  let real = Date.parse('2026-01-01T00:00:00.000Z');
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => real });
  await mock.store.transact(clockMove(() => ({ frozen_at: null, offset_ms: 5_000 })));
  // Applied, not yet waited for: the next transaction reads it (the newest state), and so does a move made on it.
  mock.store.apply(clockMove((c) => c.advanced(1_000)));
  real += 10;
  const seen = await mock.store.transact((tx) => {
    const before = [tx.nowMs(), tx.now()] as const;
    tx.setClock(MockClock.of(tx).frozenAt('2030-05-05T05:05:05.000Z'));
    return [...before, tx.nowMs(), tx.now(), MockClock.of(tx).advanced(1).frozen_at];
  });
  const at = Date.parse('2026-01-01T00:00:00.000Z') + 10 + 6_000;
  assert.equal(seen, [at, new Date(at).toISOString(), Date.parse('2030-05-05T05:05:05.000Z'), '2030-05-05T05:05:05.000Z', '2030-05-05T05:05:05.001Z']);
  assert.equal(mock.store.clock, { frozen_at: '2030-05-05T05:05:05.000Z', offset_ms: 0 });
  await mock.close();
});

test('the simulation reaches the store only where it orchestrates: event handlers get a transaction', () => {
  const orchestration = new Set(['simulation/engine.ts', 'simulation/simulation.ts', 'simulation/parts.ts', 'simulation/real-time.ts']);
  for (const f of files('simulation')) {
    if (orchestration.has(f)) continue;
    assert.not.match(readFileSync(join(SRC, f), 'utf8'), /deps\.store\b/, `${f} reads the store`);
  }
});

test("the simulation's face lends its writes to orchestration.ts; the control parts that write whole states reach no deps", () => {
  const face = readFileSync(join(SRC, 'simulation/simulation.ts'), 'utf8');
  const writes = ['load', 'close', 'configure', 'applyStart', 'setBehaviours', 'step', 'run', 'moveClock'];
  for (const name of writes) {
    const body = new RegExp(`\\n  (?:async )?${name}\\([^\\n]*\\{\\n([\\s\\S]*?)\\n  \\}\\n`).exec(face)?.[1];
    assert.ok(body !== undefined, `Simulation.${name} not found`);
    assert.not.match(body, /deps|\.clock\b|nowIso|nowMs/, `Simulation.${name} reads around its write`);
    assert.match(body, new RegExp(`writes\\.${name}\\(this\\.parts`), `Simulation.${name} is not orchestration.ts's`);
  }
  assert.not.match(readFileSync(join(SRC, 'simulation/orchestration.ts'), 'utf8'), /\bdeps\b|Deps\b/, 'orchestration.ts reaches the deps');
  for (const f of ['state-control.ts', 'snapshot-control.ts', 'clock-control.ts', 'repro-control.ts']) {
    assert.not.match(readFileSync(join(SRC, 'mock-control', f), 'utf8'), /\bdeps\b|\bDeps\b/, `${f} reaches the deps`);
  }
  // The domain steering part writes only: no reader of the store to check a reference around the write that depends on it.
  assert.not.match(
    readFileSync(join(SRC, 'mock-control/domain-control.ts'), 'utf8'),
    /\bview\b|ReadView|RecordReader|\.get\(/,
    'domain-control.ts reads the store',
  );
});

test('routes read through the read-only view: they reach the store only to attribute a write to the request', () => {
  for (const f of files('routes')) {
    for (const m of readFileSync(join(SRC, f), 'utf8').matchAll(/deps\.store\.(\w+)/g)) assert.is(m[1], 'attributeTo', `${f}: deps.store.${m[1]}`);
  }
  for (const m of readFileSync(join(SRC, 'mock-control/project-reads.ts'), 'utf8').matchAll(/deps\.(store|view)\b/g)) assert.is(m[1], 'view');
});

test('storage throws its own error: nothing under src/storage imports the HTTP error class', () => {
  const storage = files('storage');
  assert.ok(storage.length > 10);
  for (const f of storage) assert.not.match(readFileSync(join(SRC, f), 'utf8'), /from '(\.\.\/)+errors\.js'/, `${f} imports src/errors.ts`);
});

test('the store answers the query helpers as a reader: where() finds by an indexed field, as a transaction does', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const viaView = mock.store
    .where('approvals', 'run_id', DEMO.runs.waitingApproval)
    .map((a) => a.approval_id)
    .sort();
  const viaTx = await mock.store.transact((tx) =>
    tx
      .where('approvals', 'run_id', DEMO.runs.waitingApproval)
      .map((a) => a.approval_id)
      .sort(),
  );
  assert.ok(viaView.includes(DEMO.approvals.pendingWaiting));
  assert.equal(viaView, viaTx);
  assert.equal(
    mock.store.where('approvals', 'run_id', DEMO.runs.waitingApproval, (a) => a.status === 'pending').map((a) => a.approval_id),
    [...mock.store.values('approvals')].filter((a) => a.run_id === DEMO.runs.waitingApproval && a.status === 'pending').map((a) => a.approval_id),
  );
  assert.equal(mock.store.where('runs', 'project_id', 'nope'), []);
});

test('memory: a write is stored and readable at once; its answer waits for the end of the turn, with the others of that turn', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const order: string[] = [];
  const budget = () => mock.store.get('budgets', DEMO.projects.support)!;
  const before = budget().runtime_config_epoch;
  const first = mock.store
    .transact((tx) => tx.put('budgets', { ...tx.get('budgets', DEMO.projects.support)!, runtime_config_epoch: before + 1 }))
    .then(() => order.push('first'));
  const second = mock.store
    .transact((tx) => tx.put('budgets', { ...tx.get('budgets', DEMO.projects.support)!, runtime_config_epoch: before + 2 }))
    .then(() => order.push('second'));
  assert.is(budget().runtime_config_epoch, before + 2, 'both stored before either answer');
  await Promise.resolve();
  order.push('microtask');
  setImmediate(() => order.push('immediate queued after'));
  await Promise.all([first, second]);
  assert.equal(order, ['microtask', 'first', 'second']);
});

test.run();
