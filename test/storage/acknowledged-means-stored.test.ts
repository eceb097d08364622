// Acknowledged means stored, for every write operation the declarations list (v3 and /_mock): on storage that holds
// each write until released, no answer comes before its change is stored; refused by storage, it answers 503
// `storage_unavailable` and changes nothing. A new write operation fails here until it has a request below.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setImmediate as turn } from 'node:timers/promises';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { CONTROL_DECLARATIONS, V3_DECLARATIONS } from '../../src/operations/index.js';
import { MemoryAdapter, type ChangeSet, type ChangeSetAdapter, type CommittedState } from '../../src/storage/index.js';
import type { DataFile } from '../../src/schemas/state.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import { DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const GRANT = { type: 'agent.capability.grant', agent_id: 'support-bot', capability_id: 'refund-issue' };
const owner = { authorization: `Bearer ${DEMO.tokens.owner}` };

/** Memory storage whose every write waits until the test releases (or refuses) it. */
class HoldingAdapter implements ChangeSetAdapter {
  readonly inner = new MemoryAdapter();
  holding = false;
  held: { release(): void; refuse(): void }[] = [];
  read(): Promise<DataFile | null> {
    return this.inner.read();
  }
  write(data: DataFile): Promise<void> {
    return this.hold(() => this.inner.write(data));
  }
  appendChangeSets(group: readonly ChangeSet[], committed: CommittedState): void | Promise<void> {
    if (!this.holding) return this.inner.appendChangeSets(group, committed);
    return this.hold(() => this.inner.appendChangeSets(group, committed));
  }
  private hold(store: () => unknown): Promise<void> {
    if (!this.holding) return Promise.resolve(store() as void);
    return new Promise<void>((resolve, reject) =>
      this.held.push({
        release: () => {
          store();
          resolve();
        },
        refuse: () => reject(new Error('the disk refused the write')),
      }),
    );
  }
  take(): { release(): void; refuse(): void }[] {
    return this.held.splice(0);
  }
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}
type Prepare = (mock: MockApp) => Promise<Call> | Call;

/** One successful request per write operation; `stores: false` for those that change no stored state. */
const WRITES: Record<string, { call: Prepare; stores?: false }> = {
  exchangeToken: {
    call: () => ({
      method: 'POST',
      path: '/api/v3/auth/token',
      body: { grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier },
    }),
  },
  cancelRun: { call: () => ({ method: 'POST', path: `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`, body: {}, headers: owner }) },
  retryRun: { call: () => ({ method: 'POST', path: `/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`, body: {}, headers: owner }) },
  setBudget: { call: () => ({ method: 'PUT', path: `/api/v3/projects/${P}/budget`, body: { project_daily_usd: 90 }, headers: owner }) },
  planDesiredState: {
    stores: false,
    call: (m) => ({ method: 'POST', path: `/api/v3/projects/${P}/desired-state/plan`, body: { base_revision_id: head(m), mutation: GRANT }, headers: owner }),
  },
  denyApproval: { call: () => ({ method: 'POST', path: `/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}/deny`, body: {}, headers: owner }) },
  deleteProject: {
    call: () => ({ method: 'DELETE', path: `/api/v3/projects/${DEMO.projects.sandbox}`, body: { confirmation: 'empty-sandbox' }, headers: owner }),
  },
  transferProject: {
    call: () => ({
      method: 'POST',
      path: `/api/v3/projects/${DEMO.projects.sandbox}/transfer`,
      body: { workspace_id: DEMO.workspaces.acmeLabs },
      headers: owner,
    }),
  },
  chatWebhook: {
    call: () => ({
      method: 'POST',
      path: `/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`,
      body: { update_id: 990001, message: { from: { id: 777000111, display_name: 'New Person' }, text: 'Where is my order?' } },
      headers: { 'X-Chatapp-Secret-Token': DEMO.chatSecret },
    }),
  },
  brokerWebhook: {
    call: () => {
      const event = {
        event_id: 'evt-held',
        event_type: 'connection.refreshed',
        connection_resource_id: 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0',
        occurred_at: '2026-11-20T12:00:00Z',
      };
      return {
        method: 'POST',
        path: '/api/v3/webhooks/broker',
        body: event,
        headers: { 'X-Broker-Hmac-Sha256': signBrokerPayload(JSON.stringify(event), DEMO.brokerSecret).signature },
      };
    },
  },
  deleteUser: {
    call: () => ({
      method: 'DELETE',
      path: `/api/v3/projects/${P}/users/7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61`,
      body: { confirmation: 'delete-application-user' },
      headers: owner,
    }),
  },
  controlReset: {
    call: async (m) => {
      await m.control.setClock('2026-11-21T00:00:00Z'); // something to reset
      return { method: 'POST', path: '/_mock/reset' };
    },
  },
  controlLoadFixtures: { call: () => ({ method: 'POST', path: '/_mock/fixtures', body: demoFixture() }) },
  controlPutState: { call: (m) => ({ method: 'PUT', path: '/_mock/state', body: m.control.exportState({ sealed: true }) }) },
  controlClearRequests: { stores: false, call: () => ({ method: 'DELETE', path: '/_mock/requests' }) },
  controlSetClock: { call: () => ({ method: 'POST', path: '/_mock/clock', body: { now: '2026-11-21T00:00:00Z' } }) },
  controlAddFault: { stores: false, call: () => ({ method: 'POST', path: '/_mock/faults', body: { method: 'GET', path: '/api/v3/me', status: 500 } }) },
  controlClearFaults: { stores: false, call: () => ({ method: 'DELETE', path: '/_mock/faults' }) },
  controlVerify: { stores: false, call: () => ({ method: 'POST', path: '/_mock/verify', body: { request: { operation: 'getRun' }, count: { exactly: 0 } } }) },
  controlVerifySequence: { stores: false, call: journaled('/_mock/verify/sequence') },
  controlVerifyOnly: { stores: false, call: journaled('/_mock/verify/only') },
  controlApplyDesiredState: {
    call: (m) => ({ method: 'POST', path: `/_mock/projects/${P}/desired-state/apply`, body: { base_revision_id: head(m), mutation: GRANT } }),
  },
  controlCompileRelease: { call: () => ({ method: 'POST', path: `/_mock/projects/${P}/releases`, body: {} }) },
  controlCreateRun: { call: () => ({ method: 'POST', path: `/_mock/projects/${P}/runs`, body: {} }) },
  controlTransitionRun: {
    call: async (m) => {
      const run = await m.control.createRun(P, {});
      return { method: 'POST', path: `/_mock/projects/${P}/runs/${run.id}/transition`, body: { to: 'running' } };
    },
  },
  controlMintCode: { call: () => ({ method: 'POST', path: '/_mock/auth/codes', body: { principal_id: DEMO.principals.owner, code_challenge: 'abc' } }) },
  controlSetSimulation: { call: () => ({ method: 'PUT', path: '/_mock/simulation', body: { mode: 'step' } }) },
  controlStepSimulation: {
    call: async (m) => {
      await m.control.setSimulation({ mode: 'step' });
      await m.control.createRun(P, {}); // a queued run: its next event is the step's
      return { method: 'POST', path: '/_mock/simulation/step' };
    },
  },
  controlRunSimulation: { call: () => ({ method: 'POST', path: '/_mock/simulation/run', body: { until: '2026-11-20T18:00:00.000Z' } }) },
  controlSetBehaviours: { call: (m) => ({ method: 'PUT', path: '/_mock/simulation/behaviours', body: m.control.simulation().behaviours }) },
  controlCreateSandbox: { stores: false, call: () => ({ method: 'POST', path: '/_mock/sandboxes', body: {} }) },
  controlDeleteSandbox: {
    stores: false,
    call: async (m) => ({ method: 'DELETE', path: `/_mock/sandboxes/${(await m.control.createSandbox({})).id}` }),
  },
  controlSaveSnapshot: { stores: false, call: () => ({ method: 'POST', path: '/_mock/snapshots', body: { name: 'held' } }) },
  controlRestoreSnapshot: {
    call: async (m) => {
      m.control.saveSnapshot('before');
      await m.control.setClock('2026-11-21T00:00:00Z'); // something to restore over
      return { method: 'POST', path: '/_mock/snapshots/before/restore' };
    },
  },
  controlDeleteSnapshot: {
    stores: false,
    call: (m) => {
      m.control.saveSnapshot('gone');
      return { method: 'DELETE', path: '/_mock/snapshots/gone' };
    },
  },
  controlPutBundle: { call: async (m) => ({ method: 'PUT', path: '/_mock/bundle', body: await m.control.exportBundle() }) },
};

/** A verification of one getRun, after one was made (so it holds). */
function journaled(path: string): Prepare {
  return async (m) => {
    await m.fetch(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`, { headers: owner });
    return { method: 'POST', path, body: { requests: [{ operation: 'getRun' }] } };
  };
}

const head = (m: MockApp) => (m.control.getDesiredState(P) as { head: { revision_id: string } }).head.revision_id;

const WRITE_OPERATIONS = [...V3_DECLARATIONS, ...CONTROL_DECLARATIONS].filter((op) => op.method !== 'get').map((op) => op.operationId);

async function prepared(name: string): Promise<{ mock: MockApp; storage: HoldingAdapter; call: Call }> {
  const storage = new HoldingAdapter();
  const mock = await createApp({ storage, fixtures: demoFixture() });
  const call = await WRITES[name].call(mock);
  await mock.store.flush();
  storage.holding = true;
  return { mock, storage, call };
}

function send(mock: MockApp, c: Call) {
  const headers: Record<string, string> = { ...c.headers };
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  let settled = false;
  const answer = mock
    .fetch(c.path, { method: c.method, headers, body: c.body === undefined ? undefined : JSON.stringify(c.body) })
    .then(async (r) => ({ status: r.status, body: (await r.text()) as string }))
    .finally(() => (settled = true));
  return { answer, settled: () => settled };
}

/** A few turns of the event loop and a moment of real time: what an answer that does not wait for storage needs. */
const quiet = async () => {
  for (let i = 0; i < 5; i++) await turn();
  await new Promise((r) => setTimeout(r, 15));
};

test('every write operation of the declarations has a request here', () => {
  assert.equal(
    WRITE_OPERATIONS.filter((id) => !(id in WRITES)),
    [],
  );
  assert.equal(
    Object.keys(WRITES).filter((id) => !WRITE_OPERATIONS.includes(id)),
    [],
  );
});

for (const name of Object.keys(WRITES)) {
  test(`${name}: answers only once its change is stored; refused by storage, 503 and nothing changed`, async () => {
    // Held, then released: no answer while a write is held.
    {
      const { mock, storage, call } = await prepared(name);
      const sent = send(mock, call);
      let heldWrites = 0;
      for (let round = 0; round < 50 && !sent.settled(); round++) {
        await quiet();
        const held = storage.take();
        if (held.length === 0) continue;
        assert.not.ok(sent.settled(), `${name} answered while its write was held`);
        heldWrites += held.length;
        for (const h of held) h.release();
      }
      const answer = await sent.answer;
      assert.ok(answer.status >= 200 && answer.status < 300, `${name}: ${answer.status} ${answer.body.slice(0, 300)}`);
      if (WRITES[name].stores === false) assert.is(heldWrites, 0, `${name} stored a change`);
      else assert.ok(heldWrites > 0, `${name} stored nothing`);
      storage.holding = false;
      await mock.close();
    }
    if (WRITES[name].stores === false) return;
    // Refused: 503, and the stored state as before.
    {
      const { mock, storage, call } = await prepared(name);
      const before = JSON.stringify(mock.control.exportState());
      const sent = send(mock, call);
      for (let round = 0; round < 50 && !sent.settled(); round++) {
        await quiet();
        for (const h of storage.take()) h.refuse();
      }
      const answer = await sent.answer;
      assert.is(answer.status, 503, `${name}: ${answer.body.slice(0, 300)}`);
      assert.is(JSON.parse(answer.body).detail.reason_code, 'storage_unavailable');
      assert.is(JSON.stringify(mock.control.exportState()), before, `${name} changed the state although storage refused it`);
      storage.holding = false;
      await mock.close();
    }
  });
}

test.run();
