// Property: any sequence of operations on the JSON file adapter (writes, resets, restores, imports, compactions, restarts
// clean or abrupt), then a restart, gives exactly the state memory mode has after the same sequence.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import request from 'supertest';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { JsonFileAdapter, MemoryAdapter, type StorageAdapter } from '../../src/storage/adapters.js';
import type { Snapshot } from '../../src/storage/store.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { tmpDataFile } from '../helpers/disk.js';
import { propertyRuns } from '../runner/config.mjs';

const RUNS = Math.max(1, Math.ceil(propertyRuns() / 4));
const P = DEMO.projects.support;
const operator = bearer(DEMO.tokens.operator);
const owner = bearer(DEMO.tokens.owner);
const RUN_IDS = Object.values(DEMO.runs);
const APPROVALS = Object.values(DEMO.approvals);
const USERS = (demoFixture() as { users: { id: string; project_id: string }[] }).users.filter((u) => u.project_id === P).map((u) => u.id);

type Op =
  | { kind: 'cancel'; run: number }
  | { kind: 'budget'; limit: number }
  | { kind: 'create'; status: string }
  | { kind: 'transition'; run: number; to: string }
  | { kind: 'clock'; ms: number }
  | { kind: 'deny'; approval: number }
  | { kind: 'deleteUser'; user: number }
  | { kind: 'bulk'; count: number; size: number }
  | { kind: 'reset' }
  | { kind: 'snapshot' }
  | { kind: 'restore' }
  | { kind: 'import' }
  | { kind: 'restart'; clean: boolean };

const STATUSES = ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled'];
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), run: fc.nat(40) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('budget' as const), limit: fc.integer({ min: 0, max: 500 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), status: fc.constantFrom(...STATUSES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('transition' as const), run: fc.nat(40), to: fc.constantFrom(...STATUSES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clock' as const), ms: fc.integer({ min: 1, max: 86_400_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deny' as const), approval: fc.nat(APPROVALS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteUser' as const), user: fc.nat(USERS.length - 1) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('bulk' as const), count: fc.integer({ min: 1, max: 30 }), size: fc.integer({ min: 10, max: 4_000 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restore' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'import' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), clean: fc.boolean() }) },
);

interface Side {
  /** The storage a new process would open: the same memory adapter, or a new adapter on the same file. */
  open: () => StorageAdapter;
  /** Waits until the current storage does nothing in the background (two adapters on one file would be two processes). */
  idle: () => Promise<void>;
  mock: MockApp;
  snapshot?: Snapshot;
}

const boot = (storage: StorageAdapter) => createApp({ storage, fixtures: demoFixture(), seed: 7 });

/** Runs one operation on one side; returns what a client saw (status and body). */
async function apply(side: Side, o: Op, runs: string[], bulkNo: number): Promise<string> {
  const http = request(side.mock.callback());
  const said = (res: request.Response) => `${res.status} ${res.text}`;
  const runAt = (i: number) => (runs.length && i % 2 ? runs[i % runs.length] : RUN_IDS[i % RUN_IDS.length]);
  switch (o.kind) {
    case 'cancel':
      return said(
        await http
          .post(`/api/v3/projects/${P}/runs/${runAt(o.run)}/cancel`)
          .set(operator)
          .send({ reason: 'property' }),
      );
    case 'budget':
      return said(await http.put(`/api/v3/projects/${P}/budget`).set(operator).send({ user_daily_usd: o.limit }));
    case 'create':
      return said(await http.post(`/_mock/projects/${P}/runs`).send({ status: o.status }));
    case 'transition':
      return said(await http.post(`/_mock/projects/${P}/runs/${runAt(o.run)}/transition`).send({ to: o.to }));
    case 'clock':
      return said(await http.post('/_mock/clock').send({ advance_ms: o.ms }));
    case 'deny':
      return said(await http.post(`/api/v3/projects/${P}/approvals/${APPROVALS[o.approval]}/deny`).set(operator).send({ reason: 'no' }));
    case 'deleteUser':
      return said(await http.delete(`/api/v3/projects/${P}/users/${USERS[o.user]}`).set(owner).send({ confirmation: 'delete-application-user' }));
    case 'bulk': {
      // Many records in one transaction, some replacing earlier bulk records: grows the log towards compaction.
      const id = (i: number) => `00000000-0000-4000-8000-${String(bulkNo * 100 + i).padStart(12, '0')}`;
      await side.mock.store.transact((tx) => {
        for (let i = 0; i < o.count; i++) tx.put('workspaces', { id: id(i), name: `bulk ${bulkNo} ${'z'.repeat(o.size)}` });
        if (bulkNo > 0) tx.delete('workspaces', `00000000-0000-4000-8000-${String((bulkNo - 1) * 100).padStart(12, '0')}`);
      });
      return 'ok';
    }
    case 'reset':
      return said(await http.post('/_mock/reset'));
    case 'snapshot':
      side.snapshot = side.mock.control.snapshot();
      return 'ok';
    case 'restore':
      if (side.snapshot) await side.mock.control.restore(side.snapshot);
      return 'ok';
    case 'import': {
      const exported = await http.get('/_mock/state');
      return said(await http.put('/_mock/state').send(exported.body));
    }
    case 'restart':
      if (o.clean) await side.mock.close();
      else await side.mock.store.flush(); // as if the process died right after its last answer
      await side.idle();
      side.mock = await boot(side.open());
      return 'ok';
  }
}

test('property: any sequence of operations, then a restart, gives the state of memory mode', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), fc.constantFrom(1_000, 20_000, 8 * 1024 * 1024), async (ops, compactBytes) => {
      const file = tmpDataFile('prm-prop-');
      const memoryStorage = new MemoryAdapter();
      let current: JsonFileAdapter;
      const fileStorage = () => (current = new JsonFileAdapter(file, { report: {}, compactBytes }));
      const memory: Side = { open: () => memoryStorage, idle: async () => {}, mock: await boot(memoryStorage) };
      const onFile: Side = { open: fileStorage, idle: () => current.idle(), mock: await boot(fileStorage()) };
      const runs: string[] = [];
      let bulkNo = 0;
      for (const o of ops) {
        const a = await apply(memory, o, runs, bulkNo);
        const b = await apply(onFile, o, runs, bulkNo);
        if (o.kind === 'bulk') bulkNo++;
        assert.is(b, a, `${JSON.stringify(o)} answered differently on the JSON file`);
        if (o.kind === 'create' && a.startsWith('200')) runs.push(JSON.parse(a.slice(4)).id);
      }
      const expected = JSON.stringify(memory.mock.store.toData());
      assert.is(JSON.stringify(onFile.mock.store.toData()), expected);
      // The final restart: abrupt (no close), then clean.
      await onFile.mock.store.flush();
      await onFile.idle();
      const abrupt = await boot(fileStorage());
      assert.is(JSON.stringify(abrupt.store.toData()), expected, `after ${JSON.stringify(ops)}`);
      await abrupt.close();
      const clean = await boot(fileStorage());
      assert.is(JSON.stringify(clean.store.toData()), expected);
      assert.is(clean.store.seq, abrupt.store.seq);
    }),
    { numRuns: RUNS, includeErrorInReport: true },
  );
});

test.run();
