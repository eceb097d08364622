// A target that has drifted from the mock: an HTTP server that proxies a mock seeded from the same fixture and
// perturbs one thing of one operation's answers (one perturbation per server), to test what conformance reports.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';

type Json = Record<string, any>;
interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** Set by a change to send these exact bytes instead of the body's JSON. */
  raw?: string;
}

/** One perturbation: which answers it changes (method, path pattern, status) and how; what conformance must report. */
export interface Perturbation {
  method: string;
  path: RegExp;
  /** The status of the answers it changes; null changes answers of any status. */
  status: number | null;
  change(answer: ProxiedAnswer): void;
  /** The operation and field conformance must name (once), as a difference or, for an extra field, as compatible. */
  operation: string;
  field: string;
  kind: 'difference' | 'compatible';
}

const P = '/api/v3/projects/[^/]+';
export const PERTURBATIONS = {
  'renamed field': {
    method: 'GET',
    path: new RegExp(`^${P}/runs/[^/]+$`),
    status: 200,
    operation: 'getRun',
    field: 'body.status',
    kind: 'difference',
    change: (a) => {
      a.body.state = a.body.status;
      delete a.body.status;
    },
  },
  'removed required field': {
    method: 'GET',
    path: new RegExp(`^${P}/approvals/[^/]+$`),
    status: 200,
    operation: 'getApproval',
    field: 'body.tool_id',
    kind: 'difference',
    change: (a) => {
      delete a.body.tool_id;
    },
  },
  'changed status': {
    method: 'GET',
    path: new RegExp(`^${P}/users/[^/]+$`),
    status: 404,
    operation: 'getUser',
    field: 'status',
    kind: 'difference',
    change: (a) => {
      a.status = 410;
    },
  },
  'changed reason code': {
    method: 'GET',
    path: new RegExp(`^${P}/jobs$`),
    status: 404,
    operation: 'listJobs',
    field: 'body.detail.reason_code',
    kind: 'difference',
    change: (a) => {
      a.body.detail.reason_code = 'project_missing';
    },
  },
  'new status value': {
    method: 'GET',
    path: new RegExp(`^${P}/jobs$`),
    status: 200,
    operation: 'listJobs',
    field: 'body.items[].status',
    kind: 'difference',
    change: (a) => {
      for (const j of a.body.items) j.status = 'suspended';
    },
  },
  'reordered validation items': {
    method: 'POST',
    path: /^\/api\/v3\/auth\/token$/,
    status: 422,
    operation: 'exchangeToken',
    field: 'body.detail[].order',
    kind: 'difference',
    change: (a) => {
      a.body.detail.reverse();
    },
  },
  'missing next_cursor': {
    method: 'GET',
    path: new RegExp(`^${P}/users$`),
    status: 200,
    operation: 'listUsers',
    field: 'body.next_cursor',
    kind: 'difference',
    change: (a) => {
      delete a.body.next_cursor;
    },
  },
  'wrong fingerprint': {
    method: 'GET',
    path: new RegExp(`^${P}/releases/[^/]+/diff$`),
    status: 200,
    operation: 'diffRelease',
    field: 'body.semantic_diff_fingerprint',
    kind: 'difference',
    change: (a) => {
      a.body.semantic_diff_fingerprint = createHash('sha256').update('drift').digest('hex');
    },
  },
  '401 where 422 was due': {
    method: 'GET',
    path: new RegExp(`^/api/v3/projects/[^/]+/releases$`),
    status: 422,
    operation: 'listReleases',
    field: 'status',
    kind: 'difference',
    change: (a) => {
      a.status = 401;
      a.headers['www-authenticate'] = 'Bearer';
      a.body = { detail: { reason_code: 'token_invalid', message: 'Invalid token', next_action: 'authenticate' } };
    },
  },
  'extra field': {
    method: 'GET',
    path: new RegExp(`^${P}/connections/[^/]+$`),
    status: 200,
    operation: 'getConnection',
    field: 'body.region',
    kind: 'compatible',
    change: (a) => {
      a.body.region = 'eu-west-1';
    },
  },
} satisfies Record<string, Perturbation>;
export type PerturbationName = keyof typeof PERTURBATIONS;

/** An ad hoc perturbation of a test's own: GET answers of `path` with `status` (null: any), changed by `change`. */
export const onGet = (path: RegExp, status: number | null, operation: string, change: Perturbation['change']): Perturbation => ({
  method: 'GET',
  path,
  status,
  operation,
  field: '',
  kind: 'difference',
  change,
});

export interface DriftingTarget {
  url: string;
  /** The proxied mock (its state, its journal). */
  upstream: MockApp;
  /** How many answers were perturbed so far. */
  perturbed(): number;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });

/** Starts the proxy on a free loopback port; `perturbation` null proxies faithfully (a target that agrees). */
export async function driftingTarget(perturbation: PerturbationName | Perturbation | null, fixtures: unknown = demoFixture()): Promise<DriftingTarget> {
  const upstream = await createApp({ storage: 'memory', fixtures });
  const p: Perturbation | null = typeof perturbation === 'string' ? PERTURBATIONS[perturbation] : perturbation;
  let count = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const upstreamRes = await upstream.fetch(req.url!, { method: req.method, headers, body: body.length ? body : undefined });
    const text = await upstreamRes.text();
    const answer: ProxiedAnswer = { status: upstreamRes.status, headers: {}, body: text };
    upstreamRes.headers.forEach((v, k) => (k === 'content-length' || k === 'transfer-encoding' ? undefined : (answer.headers[k] = v)));
    const path = req.url!.split('?')[0];
    if (p && req.method === p.method && p.path.test(path) && (p.status === null || upstreamRes.status === p.status)) {
      answer.body = JSON.parse(text) as Json;
      p.change(answer);
      answer.body = answer.raw ?? JSON.stringify(answer.body);
      count++;
    }
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upstream,
    perturbed: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await upstream.close();
    },
  };
}
