// Secrets never leave: every route of the app (v3 and /_mock) is called with seeded secret strings and every answer is scanned.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Response } from 'supertest';
import { freshMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { demoFixture } from '../../src/fixtures.js';
import { CONTROL_ROUTES, V3_ROUTES } from '../../src/routes/index.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import type { MockApp } from '../../src/app.js';

const SECRETS = {
  webhook: 'SECRET-webhook-7f3a',
  broker: 'SECRET-broker-2c9e',
  admin: 'SECRET-admin-41d8',
  toolarg: 'SECRET-toolarg-b605',
};
const PATTERN = /SECRET-(webhook|broker|admin|toolarg)/;

/** The demo with distinctive secrets in every secret-bearing field. */
function secretFixture() {
  const f = structuredClone(demoFixture()) as Record<string, unknown> & {
    settings: Record<string, unknown>;
    connections: Record<string, unknown>[];
    approvals: Record<string, unknown>[];
  };
  f.settings = { admin_key: SECRETS.admin, broker_secret: SECRETS.broker };
  f.connections = f.connections.map((c, i) => ({ ...c, webhook_secret: i === 0 ? SECRETS.webhook : `${SECRETS.webhook}-${i}` }));
  f.approvals = f.approvals.map((a) => ({
    ...a,
    tool_arguments: { card_number: `${SECRETS.toolarg}-card`, nested: { api_key: SECRETS.toolarg }, list: [SECRETS.toolarg] },
  }));
  return f;
}

interface Seen {
  label: string;
  status: number;
  text: string;
}

/** Calls every route, records every answer, and returns them with what the error reporter logged. */
class Sweep {
  readonly seen: Seen[] = [];
  readonly logged: string[] = [];

  record(label: string, res: Response): void {
    this.seen.push({ label, status: res.status, text: `${JSON.stringify(res.headers)}\n${res.text ?? ''}\n${JSON.stringify(res.body ?? null)}` });
  }

  leaks(): string[] {
    const out = this.seen.filter((s) => PATTERN.test(s.text)).map((s) => `${s.label} -> ${s.status}: ${PATTERN.exec(s.text)![0]}`);
    for (const line of this.logged) if (PATTERN.test(line)) out.push(`log line: ${PATTERN.exec(line)![0]}`);
    return out;
  }
}

/** Every (method, path) the app serves right now; HEAD mirrors GET. */
function routesOf(): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  for (const module of [...V3_ROUTES, ...CONTROL_ROUTES]) {
    for (const layer of module(async () => ({}), 1024).stack) {
      for (const method of layer.methods) if (method !== 'HEAD' && typeof layer.path === 'string') out.push({ method, path: layer.path });
    }
  }
  // GET /_mock/state is scanned too: it seals every secret.
  return out;
}

const CONNECTION_NAMES = ['support-chat', 'crm', 'billing-api'];
const PARAM_VALUES: Record<string, string[]> = {
  project_id: [DEMO.projects.support],
  run_id: [DEMO.runs.waitingApproval, DEMO.runs.failedBackground],
  user_id: ['7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61'],
  release_id: [DEMO.releases.gen3Live],
  approval_id: Object.values(DEMO.approvals),
  connection_name: CONNECTION_NAMES,
  binding_id: [DEMO.connections.chatBinding],
};

/** Every concrete path for a template, one per combination of known parameter values. */
function expand(template: string): string[] {
  let paths = [template];
  for (const [name] of template.matchAll(/:(\w+)/g)) {
    const key = name.slice(1);
    const values = PARAM_VALUES[key] ?? ['00000000-0000-4000-8000-000000000000'];
    paths = paths.flatMap((p) => values.map((val) => p.replace(`:${key}`, encodeURIComponent(val))));
  }
  return paths;
}

/** A body that gets each known route past validation where possible; others get `{}`. */
function bodyFor(mock: MockApp, method: string, template: string): unknown {
  const key = `${method} ${template}`;
  const bodies: Record<string, () => unknown> = {
    'POST /api/v3/projects/:project_id/runs/:run_id/cancel': () => ({ reason: 'secrets sweep' }),
    'POST /api/v3/projects/:project_id/runs/:run_id/retry': () => ({ reason: 'secrets sweep', metadata: { via: 'sweep' } }),
    'DELETE /api/v3/projects/:project_id/users/:user_id': () => ({ confirmation: 'delete-application-user' }),
    'POST /api/v3/projects/:project_id/approvals/:approval_id/deny': () => ({ reason: 'secrets sweep' }),
    'PUT /api/v3/projects/:project_id/budget': () => ({ project_daily_usd: 50 }),
    'DELETE /api/v3/projects/:project_id': () => ({ confirmation: 'support-desk' }),
    'POST /api/v3/projects/:project_id/transfer': () => ({ workspace_id: DEMO.workspaces.acmeLabs }),
    'POST /api/v3/projects/:project_id/desired-state/plan': () => ({
      base_revision_id: mock.control.getDesiredState(DEMO.projects.support).head.revision_id,
      mutation: { type: 'agent.soul.set', agent_id: 'support-bot', soul: 'Be kind.' },
    }),
    'POST /_mock/projects/:project_id/desired-state/apply': () => ({ mutation: { type: 'agent.soul.set', agent_id: 'support-bot', soul: 'Be kind.' } }),
    'POST /_mock/projects/:project_id/releases': () => ({ target: 'candidate' }),
    'POST /api/v3/auth/token': () => ({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier }),
    'POST /api/v3/connections/:binding_id/chatapp/webhook': () => ({ update_id: 42, message: { from: { id: 99, display_name: 'Sweeper' }, text: 'hello' } }),
  };
  try {
    return (bodies[key] ?? (() => ({})))();
  } catch {
    return {};
  }
}

/** Writes that end the project's usefulness run last, so the other routes still see live data. */
const LAST = new Set([
  'DELETE /api/v3/projects/:project_id',
  'POST /api/v3/projects/:project_id/transfer',
  'DELETE /api/v3/projects/:project_id/users/:user_id',
]);

const CREDENTIALS: Record<string, Record<string, string>> = {
  owner: { Authorization: `Bearer ${DEMO.tokens.owner}` },
  admin: { 'X-Admin-Key': SECRETS.admin },
  wrongAdmin: { 'X-Admin-Key': 'not-the-key' },
  none: {},
};

async function sweepEverything(): Promise<Sweep> {
  const sweep = new Sweep();
  const { mock, http } = await freshMock({
    fixtures: secretFixture(),
    onError: (err) => sweep.logged.push(`${String(err)}\n${(err as Error)?.stack ?? ''}`),
  });
  const routes = routesOf();
  assert.ok(routes.length >= 20, `expected the v3 surface, found ${routes.length} routes`);
  const ordered = [...routes.filter((r) => !LAST.has(`${r.method} ${r.path}`)), ...routes.filter((r) => LAST.has(`${r.method} ${r.path}`))];

  for (const route of ordered) {
    for (const path of expand(route.path)) {
      for (const [who, headers] of Object.entries(CREDENTIALS)) {
        const extra: Record<string, string> = {};
        if (route.path.includes('chatapp/webhook')) extra['X-Chatapp-Secret-Token'] = who === 'owner' ? SECRETS.webhook : 'wrong';
        let req = http[route.method.toLowerCase() as 'get'](path).set({ ...headers, ...extra });
        if (route.path === '/api/v3/webhooks/broker') {
          const signed = signBrokerPayload(
            {
              event_id: `evt_${who}`,
              event_type: 'connection.error',
              connection_resource_id: 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0',
              occurred_at: DEMO.now,
              health: { note: 'sweep' },
            },
            who === 'owner' ? SECRETS.broker : 'wrong',
          );
          req = req.set(signed.headers).send(signed.body);
        } else if (route.method !== 'GET') {
          req = req.send(bodyFor(mock, route.method, route.path) as object);
        }
        sweep.record(`${who} ${route.method} ${path}`, await req);
      }
    }
  }
  // A second pass over every GET sees the state (and any request journal) after all the writes.
  for (const route of routes.filter((r) => r.method === 'GET')) {
    for (const path of expand(route.path)) sweep.record(`again ${route.method} ${path}`, await http.get(path).set(CREDENTIALS.owner));
  }
  return sweep;
}

test('secrets: no response body, header or logged error of any route carries a seeded secret', async () => {
  const sweep = await sweepEverything();
  assert.ok(sweep.seen.length > 100, `only ${sweep.seen.length} responses recorded`);
  // The sweep must have reached real successes, not only refusals, for the scan to mean something.
  const ok = sweep.seen.filter((s) => s.status === 200);
  assert.ok(
    ok.some((s) => s.label.includes('/connections/support-chat')),
    'connection read succeeded',
  );
  assert.ok(
    ok.some((s) => s.label.includes('/approvals/')),
    'approval read succeeded',
  );
  assert.ok(
    ok.some((s) => s.label.includes('chatapp/webhook')),
    'chat webhook accepted',
  );
  assert.ok(
    ok.some((s) => s.label.includes('webhooks/broker')),
    'broker webhook accepted',
  );
  assert.ok(
    ok.some((s) => s.label.includes('/auth/token')),
    'token issued',
  );
  assert.equal(sweep.leaks(), []);
});

test('secrets: the scan itself detects a leak (the seeded strings are where the fixture says)', async () => {
  const { mock } = await freshMock({ fixtures: secretFixture() });
  const state = JSON.stringify(mock.store.toData());
  for (const s of Object.values(SECRETS)) assert.ok(state.includes(s), `fixture stores ${s}`);
  const probe = new Sweep();
  probe.seen.push({ label: 'probe', status: 200, text: `{"x":"${SECRETS.toolarg}"}` });
  probe.logged.push(`Error: ${SECRETS.admin}`);
  assert.is(probe.leaks().length, 2);
});

test('secrets: connection views have no webhook_secret key and approvals no tool_arguments key', async () => {
  const { http } = await freshMock({ fixtures: secretFixture() });
  for (const name of CONNECTION_NAMES) {
    const res = await http.get(`/api/v3/projects/${DEMO.projects.support}/connections/${name}`).set(CREDENTIALS.admin);
    assert.is(res.status, 200);
    assert.not.ok('webhook_secret' in res.body);
  }
  const list = await http.get(`/api/v3/projects/${DEMO.projects.support}/approvals`).set(CREDENTIALS.owner);
  assert.is(list.status, 200);
  assert.ok(list.body.items.length > 0);
  for (const a of list.body.items) assert.not.ok('tool_arguments' in a);
  const one = await http.get(`/api/v3/projects/${DEMO.projects.support}/approvals/${DEMO.approvals.pendingWaiting}`).set(CREDENTIALS.owner);
  assert.is(one.status, 200);
  assert.not.ok('tool_arguments' in one.body);
});

test.run();
