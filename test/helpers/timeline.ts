// GET /_mock/timeline over a span of its own: four hours cut into hour buckets, after the demo's history, with runs
// and approvals put at chosen instants of it (the clock moved there for an approval, which opens at the clock's now).
import * as assert from 'uvu/assert';
import type { CreateAppOptions } from '../../src/app.js';
import type { CreateRunInput } from '../../src/schemas/index.js';
import { freshMock, type TestMock } from './app.js';

export type Json = Record<string, any>;
export const HOUR = 3_600_000;
/** The span every query reads unless it says otherwise: [FROM, TO), four buckets of an hour. */
export const FROM = Date.parse('2026-12-01T00:00:00.000Z');
export const TO = FROM + 4 * HOUR;
export const iso = (ms: number) => new Date(ms).toISOString();

/** A mock whose clock is a day past the span. */
export async function spanMock(options: CreateAppOptions = {}): Promise<TestMock> {
  const m = await freshMock(options);
  await m.mock.control.setClock(iso(TO + 24 * HOUR));
  return m;
}

/** A run created at `ms` (its created_at), succeeded and costing nothing unless `input` says otherwise; answers its id. */
export async function runAt(m: TestMock, project: string, ms: number, input: CreateRunInput = {}): Promise<string> {
  return (await m.mock.control.createRun(project, { status: 'succeeded', created_at: iso(ms), ...input })).id;
}

/** An approval opened at `ms`: the clock moved there, a run created waiting for it. */
export async function approvalAt(m: TestMock, project: string, ms: number): Promise<void> {
  await m.mock.control.setClock(iso(ms));
  await runAt(m, project, ms, { status: 'waiting_approval' });
}

/** The route's answer over HTTP for `query` (the span in four buckets by default). */
export async function timelineOf(m: TestMock, query = `from=${iso(FROM)}&to=${iso(TO)}&buckets=4`): Promise<Json> {
  const res = await m.http.get(`/_mock/timeline?${query}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body as Json;
}
