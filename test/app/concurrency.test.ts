// Concurrent writes on one instance over real sockets: check-and-set happens inside one transaction, so races resolve to one winner.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import type { MockApp } from '../../src/app.js';

const P = DEMO.projects.support;
const OPERATOR = { Authorization: `Bearer ${DEMO.tokens.operator}`, 'Content-Type': 'application/json' };

async function listening(mock: MockApp): Promise<{ server: Server; base: string }> {
  const server = mock.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function call(method: string, url: string, body: unknown): Promise<{ status: number; body: { detail?: { reason_code?: string }; enqueued?: boolean } }> {
  const res = await fetch(url, { method, headers: OPERATOR, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as never };
}

test('concurrency: 50 concurrent denies of one approval -> exactly one 200 and 49 409 approval_not_pending', async () => {
  const { mock } = await freshMock();
  const { server, base } = await listening(mock);
  try {
    const url = `${base}/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}/deny`;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => call('POST', url, { reason: `deny ${i}` })));
    const ok = results.filter((r) => r.status === 200);
    const conflicts = results.filter((r) => r.status === 409);
    assert.is(ok.length, 1);
    assert.is(conflicts.length, 49);
    assert.ok(conflicts.every((r) => r.body.detail?.reason_code === 'approval_not_pending'));
    assert.is(ok[0].body.enqueued, true);
    const stored = Array.from(mock.store.values('approvals')).find((a) => a.approval_id === DEMO.approvals.pendingWaiting)!;
    assert.is(stored.status, 'denied');
    // The winner's reason is the one stored, and the run was queued exactly once.
    const run = mock.store.get('runs', DEMO.runs.waitingApproval)!;
    assert.is(run.status, 'queued');
    assert.is(run.events.filter((e) => (e as { type: string }).type === 'run.queued').length, 2); // the fixture's first queueing + this one
  } finally {
    await close(server);
  }
});

test('concurrency: a cancel racing a deny leaves run and approval consistent, in either order', async () => {
  for (let round = 0; round < 12; round++) {
    const { mock } = await freshMock();
    const { server, base } = await listening(mock);
    try {
      const cancel = () => call('POST', `${base}/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`, { reason: 'race' });
      const deny = () => call('POST', `${base}/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}/deny`, { reason: 'race' });
      const [c, d] = round % 2 === 0 ? await Promise.all([cancel(), deny()]) : (await Promise.all([deny(), cancel()])).reverse();
      const run = mock.store.get('runs', DEMO.runs.waitingApproval)!;
      const approval = Array.from(mock.store.values('approvals')).find((a) => a.approval_id === DEMO.approvals.pendingWaiting)!;
      // A queued run is cancellable too, so the cancel always wins its part.
      assert.is(c.status, 200, JSON.stringify(c.body));
      assert.is(run.status, 'cancelled');
      assert.ok(
        run.steps.every((s) => s.status !== 'pending'),
        'no pending checkpoint survives a cancel',
      );
      if (d.status === 200) {
        // Deny went first: the approval is denied, the run was re-queued, then cancelled.
        assert.is(approval.status, 'denied');
        assert.is(d.body.enqueued, true);
      } else {
        // Cancel went first: the approval was cancelled with the run, and deny found it not pending.
        assert.is(d.status, 409);
        assert.is(d.body.detail?.reason_code, 'approval_not_pending');
        assert.is(approval.status, 'cancelled');
      }
    } finally {
      await close(server);
    }
  }
});

test('concurrency: 20 concurrent cancels of one run -> one 200, 19 run_not_cancellable', async () => {
  const { mock } = await freshMock();
  const { server, base } = await listening(mock);
  try {
    const url = `${base}/api/v3/projects/${P}/runs/81eef1af-723d-4970-93e7-7a3162e9146d/cancel`;
    const results = await Promise.all(Array.from({ length: 20 }, () => call('POST', url, {})));
    assert.is(results.filter((r) => r.status === 200).length, 1);
    assert.ok(results.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.detail?.reason_code === 'run_not_cancellable'));
  } finally {
    await close(server);
  }
});

test('concurrency: 30 concurrent budget PUTs raise runtime_config_epoch by exactly 30', async () => {
  const { mock } = await freshMock();
  const { server, base } = await listening(mock);
  try {
    const url = `${base}/api/v3/projects/${P}/budget`;
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => call('PUT', url, { user_daily_usd: i % 5 })));
    assert.ok(results.every((r) => r.status === 200));
    const epochs = results.map((r) => (r.body as { runtime_config_epoch: number }).runtime_config_epoch).sort((a, b) => a - b);
    assert.equal(
      epochs,
      Array.from({ length: 30 }, (_, i) => 8 + i),
    );
    assert.is(mock.store.get('budgets', P)!.runtime_config_epoch, 37);
  } finally {
    await close(server);
  }
});

test.run();
