// Generated fixtures for the benchmark: the demo plus N queued runs (a pool to cancel) or N app users, and json-server's db of the same records.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoFixture } from '../../src/fixtures.js';

export const WORK = fileURLToPath(new URL('../.work/', import.meta.url));
export const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
export const RUN = '391206e3-21b8-4eae-b109-2fe71e9c7b14';
export const TOKEN = 'demo-owner-token';
const RELEASE = '66635303-021d-4e7e-b247-48ce39d8cb62';

/** A deterministic UUID: `kind` (8 hex digits) names the collection, `i` the record. */
const benchId = (kind: string, i: number) => `${kind}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
export const runId = (i: number) => benchId('b0000001', i);
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

/** A queued API run with one pending step: about 900 bytes of JSON, cancellable once. */
export function queuedRun(i: number) {
  return {
    id: runId(i),
    project_id: PROJECT,
    created_at: at(i),
    runtime_mode: 'live' as const,
    status: 'queued' as const,
    surface: 'api' as const,
    release_id: RELEASE,
    user_id: null,
    trace_id: benchId('b0000003', i),
    cost_usd: 0,
    input_tokens: 0,
    output_tokens: 0,
    latency_ms: 0,
    request_metadata: { channel: 'api', message_preview: `Benchmark request number ${i}: summarise the latest invoice and flag anomalies` },
    result: {},
    events: [{ type: 'run.queued', at: at(i) }],
    steps: [
      {
        id: benchId('b0000004', i),
        created_at: at(i),
        name: 'support-bot reply',
        sequence: 1,
        status: 'pending' as const,
        step_type: 'model',
        surface: 'api',
        attempt: 1,
        content_available: false,
        guardrail_decisions: [],
        input_summary: { model: 'small-1', messages: 1 },
        output_summary: {},
        metadata: {},
      },
    ],
    timing: { queue_wait_ms: 0 },
  };
}

function appUser(i: number) {
  return {
    id: benchId('b0000002', i),
    project_id: PROJECT,
    created_at: at(i),
    preferred_channel: 'chatapp',
    status: 'active' as const,
    display_name: `Bench User ${i}`,
    external_provider: 'chatapp',
    external_user_id: String(900000000 + i),
    last_active_at: at(i),
  };
}

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** Writes a fixture file: the demo plus `runs` queued runs, and app users up to `users` in the project (so pages come out full). */
export function writeFixture(name: string, { runs = 0, users = 0 }: { runs?: number; users?: number }): string {
  const demo = demoFixture() as { runs: unknown[]; users: { project_id: string }[] };
  const extra = users ? users - demo.users.filter((u) => u.project_id === PROJECT).length : 0;
  const doc = { ...demo, runs: [...demo.runs, ...range(runs, queuedRun)], users: [...demo.users, ...range(extra, appUser)] };
  return writeWork(name, JSON.stringify(doc));
}

/** json-server's db with the same `n` run records (it appends POSTed ones to `runs`). */
export function writeJsonServerDb(name: string, n: number): string {
  return writeWork(name, JSON.stringify({ runs: range(n, queuedRun) }, null, 2));
}

export function writeWork(name: string, text: string): string {
  mkdirSync(WORK, { recursive: true });
  const file = join(WORK, name);
  writeFileSync(file, text);
  return file;
}
