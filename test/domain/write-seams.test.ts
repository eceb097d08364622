// The domain cannot read around a write's transaction: its write functions get WriteDeps, whose store only runs
// transactions (checked by the type checker below), and no domain module names the Store or the whole Deps.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { WriteDeps } from '../../src/deps.js';
import type { ReadView, RecordReader, Transaction, Writer } from '../../src/storage/store.js';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { inProject } from '../../src/domain/queries.js';
import { DEMO } from '../helpers/demo.js';

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
    // A query helper takes any reader: the transaction is one.
    return inProject(tx, 'runs', 'x', projectId);
  });
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

test('the simulation reaches the store only where it orchestrates: event handlers get a transaction', () => {
  const orchestration = new Set(['simulation/engine.ts', 'simulation/simulation.ts', 'simulation/parts.ts', 'simulation/real-time.ts']);
  for (const f of files('simulation')) {
    if (orchestration.has(f)) continue;
    assert.not.match(readFileSync(join(SRC, f), 'utf8'), /deps\.store\b/, `${f} reads the store`);
  }
});

test('routes read through the read-only view: they reach the store only to attribute a write to the request', () => {
  for (const f of files('routes')) {
    for (const m of readFileSync(join(SRC, f), 'utf8').matchAll(/deps\.store\.(\w+)/g)) assert.is(m[1], 'attributeTo', `${f}: deps.store.${m[1]}`);
  }
  for (const m of readFileSync(join(SRC, 'control/project-reads.ts'), 'utf8').matchAll(/deps\.(store|view)\b/g)) assert.is(m[1], 'view');
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
