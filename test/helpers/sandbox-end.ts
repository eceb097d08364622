// The end of a sandbox, raced: servers that log the order in which they answered, and the races the sandbox-end suites
// run on every storage (a delete among concurrent writes and reads, writes held by a delay fault or a slow body, expiry).
import * as assert from 'uvu/assert';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockApp } from '../../src/app.js';
import { DEMO } from './demo.js';

export type Json = Record<string, any>;
export const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const owner = { authorization: `Bearer ${DEMO.tokens.owner}` };
export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One answer as the server wrote it: the request's tag, its status, and its place in the order of every server's answers. */
interface Written {
  tag: string;
  status: number;
  order: number;
}

export interface Served {
  mock: MockApp;
  base: string;
  close(): Promise<void>;
}

/** Every server's answers, in the order they were written to their sockets (one counter for all). */
const written: Written[] = [];
let order = 0;
/** The place in `written` of the answer tagged `tag` (exactly one). */
export const answeredAt = (tag: string) => orderOf(tag).order;

/** `mock` on a socket; each answer's end is logged in `written` under the request's `x-test-tag`. */
export async function serve(mock: MockApp): Promise<Served> {
  const handler = mock.callback();
  const server: Server = createServer((req, res) => {
    const tag = String(req.headers['x-test-tag'] ?? '');
    res.once('finish', () => written.push({ tag, status: res.statusCode, order: ++order }));
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    mock,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mock.close();
    },
  };
}

export async function call(s: Served, method: string, path: string, body?: unknown, tag = '') {
  const res = await fetch(s.base + path, {
    method,
    headers: { ...owner, 'x-test-tag': tag, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : null };
}

export async function create(s: Served, body: Json = {}): Promise<string> {
  const made = await call(s, 'POST', '/_mock/sandboxes', body);
  assert.is(made.status, 201, JSON.stringify(made.body));
  return made.body!.id as string;
}

export const gone = (id: string) => ({
  detail: { reason_code: 'sandbox_not_found', message: 'No such sandbox: never created, deleted, or expired.', affected_resource: `sandbox:${id}` },
});

/** The written order of the answer tagged `tag` (exactly one). */
function orderOf(tag: string): Written {
  const found = written.filter((w) => w.tag === tag);
  assert.is(found.length, 1, `one answer tagged ${tag}`);
  return found[0];
}

/**
 * 60 requests at once, spread over `servers`: run creates (/_mock), budget PUTs and GETs (v3), with the DELETE as
 * request 26. None answers 5xx; each is 200 or 404 `sandbox_not_found`; every 200 was written before the delete's;
 * the sandbox is gone everywhere after; answers `{ runs, budgets }`: the numbers of the run creates and budget PUTs that answered 200.
 */
export async function raceDelete(servers: Served[], round: number, created?: (id: string) => void) {
  const id = await create(servers[round % servers.length]);
  created?.(id);
  const S = `/sandboxes/${id}`;
  const tag = (i: number) => `race-${id}-${i}`;
  const sends = Array.from({ length: 60 }, (_, i) => {
    const s = servers[i % servers.length];
    if (i === 25) return call(s, 'DELETE', `/_mock/sandboxes/${id}`, undefined, tag(i));
    if (i % 3 === 0) return call(s, 'POST', `${S}/_mock/projects/${P}/runs`, {}, tag(i));
    if (i % 3 === 1) return call(s, 'PUT', `${S}/api/v3/projects/${P}/budget`, { project_daily_usd: 100 + i }, tag(i));
    return call(s, 'GET', `${S}${RUN}`, undefined, tag(i));
  });
  const answers = await Promise.all(sends);
  assert.equal(answers[25], { status: 200, body: { deleted: true, id } });
  const deleted = orderOf(tag(25)).order;
  const runs: number[] = [];
  const budgets: number[] = [];
  answers.forEach((a, i) => {
    if (i === 25) return;
    if (a.status === 404) return assert.equal(a.body, gone(id), `request ${i}`);
    assert.is(a.status, 200, `request ${i}: ${JSON.stringify(a.body)}`);
    assert.ok(orderOf(tag(i)).order < deleted, `request ${i} answered 200 after the delete's answer`);
    if (i % 3 === 0) runs.push(i);
    if (i % 3 === 1) budgets.push(i);
  });
  for (const s of servers) assert.equal(await call(s, 'GET', `${S}${RUN}`), { status: 404, body: gone(id) });
  return { id, runs, budgets };
}

/**
 * A budget PUT held by a delay fault (set through `holder`), then a DELETE through `deleter` while it waits: the held write
 * answers 404 and stores nothing, and it is answered before the delete is.
 */
export async function delayedWrite(holder: Served, deleter: Served) {
  const id = await create(holder);
  const S = `/sandboxes/${id}`;
  const fault = await call(holder, 'POST', `${S}/_mock/faults`, { method: 'PUT', path: `/api/v3/projects/${P}/budget`, delay_ms: 5_000 });
  assert.is(fault.status, 200, JSON.stringify(fault.body));
  const t0 = Date.now();
  const held = call(holder, 'PUT', `${S}/api/v3/projects/${P}/budget`, { project_daily_usd: 77 }, `held-${id}`);
  await wait(150);
  const del = await call(deleter, 'DELETE', `/_mock/sandboxes/${id}`, undefined, `delete-${id}`);
  assert.equal(del, { status: 200, body: { deleted: true, id } });
  assert.equal(await held, { status: 404, body: gone(id) });
  assert.ok(Date.now() - t0 < 4_000, 'the delay was cut short by the end');
  assert.ok(orderOf(`held-${id}`).order < orderOf(`delete-${id}`).order, 'the held write was answered before the delete');
  return id;
}

/** A POST whose body is sent slowly: half, then (after `gap` ms) the rest, unless the answer came first. */
function slowPost(s: Served, path: string, body: string, gap: number, tag: string): Promise<{ status: number; body: Json | null }> {
  return new Promise((resolve, reject) => {
    const url = new URL(s.base + path);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...owner, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-test-tag': tag },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, Math.floor(body.length / 2)));
    setTimeout(() => {
      if (!req.destroyed) req.end(body.slice(Math.floor(body.length / 2)));
    }, gap);
  });
}

/** A run create whose body is still arriving when the sandbox is deleted: it answers 404, before the delete. */
export async function slowBodyWrite(holder: Served, deleter: Served) {
  const id = await create(holder);
  const held = slowPost(
    holder,
    `/sandboxes/${id}/_mock/projects/${P}/runs`,
    JSON.stringify({ status: 'queued', request_metadata: { note: 'sent slowly' } }),
    3_000,
    `slow-${id}`,
  );
  await wait(150);
  const del = await call(deleter, 'DELETE', `/_mock/sandboxes/${id}`, undefined, `delete-${id}`);
  assert.equal(del, { status: 200, body: { deleted: true, id } });
  assert.equal(await held, { status: 404, body: gone(id) });
  assert.ok(orderOf(`slow-${id}`).order < orderOf(`delete-${id}`).order, 'the slow write was answered before the delete');
  return id;
}

/**
 * A sandbox with a 300 ms time to live and a write held 700 ms by a delay fault: it is alive while the write is in
 * flight (answered 200, and stored: the next GET through `reader` sees it), and expires 300 ms after that answer.
 */
export async function inFlightPastTtl(holder: Served, reader: Served) {
  const id = await create(holder, { ttl_ms: 300 });
  const S = `/sandboxes/${id}`;
  assert.is((await call(holder, 'POST', `${S}/_mock/faults`, { method: 'PUT', path: `/api/v3/projects/${P}/budget`, delay_ms: 700 })).status, 200);
  const put = await call(holder, 'PUT', `${S}/api/v3/projects/${P}/budget`, { project_daily_usd: 41 });
  assert.is(put.status, 200, JSON.stringify(put.body));
  assert.is(put.body!.limits.project_daily_usd, 41);
  // An empty PUT changes no limit: it answers the stored ones.
  const read = await call(reader, 'PUT', `${S}/api/v3/projects/${P}/budget`, {});
  assert.is(read.status, 200, JSON.stringify(read.body));
  assert.is(read.body!.limits.project_daily_usd, 41);
  await wait(700);
  assert.equal(await call(reader, 'GET', `${S}${RUN}`), { status: 404, body: gone(id) });
  return id;
}

/**
 * Requests to one sandbox held on `a` and `c` while `b` deletes it: a budget PUT held by a delay fault on each, a run
 * create whose body is still arriving on each. Each answers 404 `sandbox_not_found`, before the delete's 200; nothing
 * they sent is stored (the caller counts the rows).
 */
export async function heldOnTwoDeletedOnThird(a: Served, b: Served, c: Served) {
  const id = await create(a);
  const S = `/sandboxes/${id}`;
  for (const s of [a, c]) {
    const fault = await call(s, 'POST', `${S}/_mock/faults`, { method: 'PUT', path: `/api/v3/projects/${P}/budget`, delay_ms: 5_000 });
    assert.is(fault.status, 200, JSON.stringify(fault.body));
  }
  const t0 = Date.now();
  const held = [a, c].flatMap((s, i) => [
    call(s, 'PUT', `${S}/api/v3/projects/${P}/budget`, { project_daily_usd: 50 + i }, `held-${i}-${id}`),
    slowPost(s, `${S}/_mock/projects/${P}/runs`, JSON.stringify({ status: 'queued' }), 3_000, `slow-${i}-${id}`),
  ]);
  await wait(200);
  const del = await call(b, 'DELETE', `/_mock/sandboxes/${id}`, undefined, `delete-${id}`);
  assert.equal(del, { status: 200, body: { deleted: true, id } });
  for (const answer of await Promise.all(held)) assert.equal(answer, { status: 404, body: gone(id) });
  assert.ok(Date.now() - t0 < 2_500, 'the waits were cut short by the end');
  for (const tag of [`held-0-${id}`, `slow-0-${id}`, `held-1-${id}`, `slow-1-${id}`])
    assert.ok(answeredAt(tag) < answeredAt(`delete-${id}`), `${tag} was answered before the delete`);
  for (const s of [a, b, c]) assert.equal(await call(s, 'GET', `${S}${RUN}`), { status: 404, body: gone(id) });
  return id;
}
