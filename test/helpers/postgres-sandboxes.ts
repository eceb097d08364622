// Shared sandboxes on PostgreSQL for the suites that test them: instances on one fresh schema, requests, row counts.
import * as assert from 'uvu/assert';
import { createApp, type CreateAppOptions, type MockApp } from '../../src/app.js';
import { ApiError } from '../../src/errors.js';
import { demoFixture } from '../../src/fixtures.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { admin, DATABASE_URL, freshSchema } from './postgres.js';
import { DEMO } from './demo.js';

export type Json = Record<string, any>;
export const P = DEMO.projects.support;
export const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
export const owner = { authorization: `Bearer ${DEMO.tokens.owner}` };
/** Every instance a suite started (close them in test.after). */
export const apps: MockApp[] = [];
export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `n` instances on one schema (a fresh one unless given), started from the demo fixture. */
export async function instances(n: number, extra: Partial<CreateAppOptions> = {}, schema = freshSchema()): Promise<{ live: MockApp[]; schema: string }> {
  const live: MockApp[] = [];
  for (let i = 0; i < n; i++) {
    const app = await createApp({ storage: postgresStorage({ connectionString: DATABASE_URL, schema }), fixtures: demoFixture(), ...extra });
    apps.push(app);
    live.push(app);
  }
  return { live, schema };
}

export async function call(app: MockApp, method: string, path: string, body?: unknown, headers: Record<string, string> = owner) {
  const res = await app.fetch(path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : null, headers: res.headers };
}

/** Creates a sandbox through `app` (asserting 201) and answers what the create answered. */
export async function create(app: MockApp, body: Json = {}) {
  const made = await call(app, 'POST', '/_mock/sandboxes', body);
  assert.is(made.status, 201, JSON.stringify(made.body));
  return made.body as { id: string; name: string | null; base_url: string; created_at: string; expires_at: string; ttl_ms: number };
}

/** How many rows of `schema.table` match `where`. */
export async function rows(schema: string, table: string, where = 'true', values: unknown[] = []): Promise<number> {
  return Number((await admin<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.${table} WHERE ${where}`, values))[0].n);
}

export async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await wait(50)) if (await check()) return true;
  return check();
}

/** Whether `app` holds a copy of sandbox `id` (its in-process control reaches only a copy it holds). */
export function holds(app: MockApp, id: string): boolean {
  try {
    app.control.sandboxControl(id);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.reason_code === 'sandbox_not_found') return false;
    throw err;
  }
}
