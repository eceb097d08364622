// The soak's traffic: weighted actions (reads, writes of every kind, control writes, hostile inputs) over keep-alive
// HTTP; each action reports the statuses it got. Record-creating writes draw from a rate limiter so that state grows slowly.
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const P = `/api/v3/projects/${PROJECT}`;
const RUNS = ['391206e3-21b8-4eae-b109-2fe71e9c7b14', '59cfeed3-439a-4dab-a2ba-fa30f52df113', 'a7072153-3dfa-470d-aaf0-be9f68012cd1'];
const FAILED_BACKGROUND = '59cfeed3-439a-4dab-a2ba-fa30f52df113';
const CHAT_BINDING = 'e96b28d7-1310-499b-952e-bd5c21e77d85';
const CONNECTION_RESOURCES = ['a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0', '81be4ad9-1675-48d3-a387-991940df2adb'];
const EVENT_TYPES = ['connection.authorized', 'connection.refreshed', 'connection.error', 'connection.revoked'];
const OWNER = { authorization: 'Bearer demo-owner-token' };
const OPERATOR = { authorization: 'Bearer demo-operator-token' };
const JSON_TYPE = { 'content-type': 'application/json' };
const OWNER_PRINCIPAL = 'e0aa8a15-a6c9-481a-839d-7ec4ece39df4';

interface Answer {
  status: number;
  body: string;
}
export type Send = (method: string, path: string, headers?: Record<string, string>, body?: string | Buffer) => Promise<Answer>;

/** A keep-alive client for `base` with up to `connections` sockets; a socket error rejects. */
export function client(base: string, connections: number): Send {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  return (method, path, headers = {}, body) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/** Allows `perSecond` record-creating writes per second on average; the others fall back to a read. */
export class Limiter {
  private tokens = 1;
  private last = Date.now();
  constructor(private readonly perSecond: number) {}
  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)];
const json = (x: unknown) => JSON.stringify(x);
let counter = 0;
const unique = () => `${process.pid}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

type Action = (send: Send, creates: Limiter) => Promise<number[]>;
const one = async (p: Promise<Answer>) => [(await p).status];

const read: Action = (send) =>
  one(
    pick([
      () => send('GET', `${P}/runs/${pick(RUNS)}`, OWNER),
      () => send('GET', `${P}/users?limit=${1 + Math.floor(Math.random() * 200)}`, OWNER),
      () => send('GET', `${P}/releases?limit=2`, OWNER),
      () => send('GET', `${P}/approvals?status=${pick(['pending', 'expired', 'denied'])}`, OWNER),
      () => send('GET', `${P}/jobs?status=active`, OWNER),
      () => send('GET', `${P}/connections/crm`, { 'x-admin-key': 'demo-admin-key' }),
      () => send('GET', `${P}/releases/5ad1f21b-b7b4-4df2-a278-5ced302b2be6/diff`, OWNER),
      () => send('GET', '/_mock/clock'),
    ])(),
  );

/** Walks the user pages with a cursor. */
const walk: Action = async (send) => {
  const statuses: number[] = [];
  let cursor: string | null = null;
  do {
    const res: Answer = await send('GET', `${P}/users?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, OWNER);
    statuses.push(res.status);
    cursor = res.status === 200 ? (JSON.parse(res.body).next_cursor as string | null) : null;
  } while (cursor);
  return statuses;
};

const budget: Action = (send) => {
  const monthly = Math.round(Math.random() * 1000);
  return one(
    send(
      'PUT',
      `${P}/budget`,
      { ...OPERATOR, ...JSON_TYPE },
      json({ project_monthly_usd: monthly, project_daily_usd: Math.round(monthly / 30), funding_mode: pick(['prepaid', 'invoiced', 'free_sandbox']) }),
    ),
  );
};

/** A chat update: usually a repeat of one of 50 update ids (a duplicate after the first), sometimes a new one (a new run). */
const chat: Action = (send, creates) => {
  const fresh = creates.take();
  const update_id = fresh ? 1_000_000 + counter++ : Math.floor(Math.random() * 50);
  const body = json({ update_id, message: { from: { id: 900_000 + (update_id % 50), display_name: 'Soak Sender' }, text: 'soak message' } });
  return one(send('POST', `/api/v3/connections/${CHAT_BINDING}/chatapp/webhook`, { ...JSON_TYPE, 'x-chatapp-secret-token': 'demo-chat-webhook-secret' }, body));
};

/** A signed broker event with a new event id (its dedupe key is kept for the retention period), then a repeat of it. */
const broker: Action = async (send) => {
  const body = json({
    event_id: `evt_${unique()}`,
    event_type: pick(EVENT_TYPES),
    connection_resource_id: pick(CONNECTION_RESOURCES),
    occurred_at: '2026-11-20T11:00:00.000Z',
  });
  const headers = { ...JSON_TYPE, 'x-broker-hmac-sha256': createHmac('sha256', 'demo-broker-secret').update(body).digest('hex') };
  return [(await send('POST', '/api/v3/webhooks/broker', headers, body)).status, (await send('POST', '/api/v3/webhooks/broker', headers, body)).status];
};

/** Mint a code, exchange it, rotate the refresh token, then reuse the old one (which revokes the family). */
const tokens: Action = async (send) => {
  const verifier = createHash('sha256').update(unique()).digest('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const minted = await send('POST', '/_mock/auth/codes', JSON_TYPE, json({ principal_id: OWNER_PRINCIPAL, code_challenge: challenge }));
  if (minted.status !== 200) return [minted.status];
  const code = JSON.parse(minted.body).code as string;
  const pair = await send('POST', '/api/v3/auth/token', JSON_TYPE, json({ grant_type: 'authorization_code', code, code_verifier: verifier }));
  if (pair.status !== 200) return [minted.status, pair.status];
  const first = JSON.parse(pair.body) as { access_token: string; refresh_token: string };
  const use = await send('GET', `${P}/jobs`, { authorization: `Bearer ${first.access_token}` });
  const rotated = await send('POST', '/api/v3/auth/token', JSON_TYPE, json({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
  const reuse = await send('POST', '/api/v3/auth/token', JSON_TYPE, json({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
  return [minted.status, pair.status, use.status, rotated.status, reuse.status];
};

/** Record-creating run writes (rate limited): control-created run then cancel, deny of a fresh approval, retry. */
const runWrites: Action = async (send, creates) => {
  if (!creates.take()) return read(send, creates);
  const kind = pick(['cancel', 'deny', 'retry', 'transition']);
  if (kind === 'retry')
    return one(send('POST', `${P}/runs/${FAILED_BACKGROUND}/retry`, { ...OPERATOR, ...JSON_TYPE }, json({ reason: 'soak', metadata: { n: counter++ } })));
  const status = kind === 'deny' ? 'waiting_approval' : kind === 'transition' ? 'running' : 'queued';
  const created = await send('POST', `/_mock/projects/${PROJECT}/runs`, JSON_TYPE, json({ status, steps: [{ name: 'soak step' }] }));
  if (created.status !== 200) return [created.status];
  const run = JSON.parse(created.body) as { id: string; approval?: { approval_id: string } };
  if (kind === 'cancel')
    return [created.status, (await send('POST', `${P}/runs/${run.id}/cancel`, { ...OPERATOR, ...JSON_TYPE }, json({ reason: 'soak' }))).status];
  if (kind === 'transition')
    return [created.status, (await send('POST', `/_mock/projects/${PROJECT}/runs/${run.id}/transition`, JSON_TYPE, json({ to: 'succeeded' }))).status];
  return [
    created.status,
    (await send('POST', `${P}/approvals/${run.approval!.approval_id}/deny`, { ...OPERATOR, ...JSON_TYPE }, json({ reason: 'soak' }))).status,
  ];
};

/** Control-surface writes that do not grow state: a plan (v3, write-free), a fault on a path nobody calls, and its removal. */
const control: Action = async (send) => {
  const head = await send('GET', `/_mock/projects/${PROJECT}/desired-state`);
  const base = head.status === 200 ? (JSON.parse(head.body).head.revision_id as string) : '00000000-0000-4000-8000-000000000000';
  const plan = await send(
    'POST',
    `${P}/desired-state/plan`,
    { ...OPERATOR, ...JSON_TYPE },
    json({ base_revision_id: base, mutation: { type: 'agent.capability.grant', agent_id: 'support-bot', capability_id: 'refund-issue' } }),
  );
  const fault = await send('POST', '/_mock/faults', JSON_TYPE, json({ method: 'GET', path: `/soak/${unique()}/**`, status: 418, times: 1 }));
  const journal = await send('GET', '/_mock/requests?path=/api/v3/**a**a**a!&status=4xx');
  return [head.status, plan.status, fault.status, journal.status];
};

const deep = (depth: number) => '{"metadata":'.repeat(1) + '['.repeat(depth) + ']'.repeat(depth) + '}';
const hostile: Action = (send) =>
  one(
    pick([
      () => send('POST', `${P}/runs/${RUNS[0]}/cancel`, { ...OPERATOR, ...JSON_TYPE }, '{"reason": '),
      () => send('POST', `${P}/runs/${FAILED_BACKGROUND}/retry`, { ...OPERATOR, ...JSON_TYPE }, deep(5000)),
      () => send('POST', '/api/v3/auth/token', JSON_TYPE, `{"x":[${'{},'.repeat(200_000)}{}]}`),
      () => send('PUT', `${P}/budget`, { ...OPERATOR, ...JSON_TYPE }, json({ project_daily_usd: 'x'.repeat(2 * 1024 * 1024) })),
      () => send('PUT', `${P}/budget`, { ...OPERATOR, 'content-type': 'text/plain' }, 'not json'),
      () => send('POST', `${P}/runs/${RUNS[0]}/cancel`, { ...OPERATOR, ...JSON_TYPE, 'content-encoding': 'gzip' }, '{"reason":"not gzip"}'),
      () => send('GET', `/api/v3/projects/not-a-uuid/runs/${'x'.repeat(2000)}`, OWNER),
      () => send('GET', `${P}/users?cursor=garbage&limit=0`, { authorization: 'Bearer nope' }),
      () => send('GET', `${P}/runs/${RUNS[0]}`, { authorization: 'Bearer demo-expired-token' }),
      () => send('POST', '/api/v3/webhooks/broker', { ...JSON_TYPE, 'x-broker-hmac-sha256': 'f'.repeat(64) }, `{"health":${deep(10_000)}}`),
      () => send('POST', `/api/v3/connections/${CHAT_BINDING}/chatapp/webhook`, { ...JSON_TYPE, 'x-chatapp-secret-token': 'wrong' }, '{}'),
      () => send('POST', '/_mock/reset', { 'content-type': 'text/plain', origin: 'https://attacker.example' }, 'x'),
      () => send('PUT', '/_mock/state', JSON_TYPE, '{}'),
      () => send('POST', `/_mock/projects/${PROJECT}/runs`, JSON_TYPE, '{"cost_usd": 1e400}'),
      () => send('POST', '/_mock/clock', JSON_TYPE, json({ advance_ms: 9007199254740991 })),
      () => send('DELETE', `/nope/${'%zz'.repeat(10)}`),
    ])(),
  );

/** The mix, by weight: mostly reads, every kind of write, control writes and hostile inputs. */
const MIX: [number, Action][] = [
  [40, read],
  [3, walk],
  [8, budget],
  [8, chat],
  [6, broker],
  [5, tokens],
  [8, runWrites],
  [2, control],
  [20, hostile],
];
const TOTAL = MIX.reduce((s, [w]) => s + w, 0);

export function nextAction(): Action {
  let r = Math.random() * TOTAL;
  for (const [w, a] of MIX) if ((r -= w) < 0) return a;
  return read;
}
