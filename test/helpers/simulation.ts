// Shared pieces of the simulation suites: the demo with a known behaviour, a chat message, and a few readers.
import { demoFixture } from '../../src/fixtures.js';
import type { CreateAppOptions } from '../../src/app.js';
import { freshMock, type TestMock } from './app.js';
import { DEMO } from './demo.js';

export const P = DEMO.projects.support;
export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;
export const SECRET = { 'X-Chatapp-Secret-Token': DEMO.chatSecret };
export const owner = { Authorization: `Bearer ${DEMO.tokens.owner}` };

/**
 * A behaviour whose every number is known: 1 s queue; memory 200 ms; model 1.5 s ($0.002, 1000/100 tokens); a tool
 * step `refund` behind an approval decided after 60 s (1 h expiry); model 1 s ($0.001, 500/50 tokens).
 */
export const KNOWN = {
  queue_wait_ms: 1000,
  steps: [
    { name: 'recall', step_type: 'memory', duration_ms: 200 },
    { name: 'think', step_type: 'model', duration_ms: 1500, cost_usd: 0.002, input_tokens: 1000, output_tokens: 100 },
    { name: 'refund', step_type: 'tool', duration_ms: 500, approval: { decision: 'approve', decide_after_ms: 60_000, expires_in_ms: HOUR } },
    { name: 'reply', step_type: 'model', duration_ms: 1000, cost_usd: 0.001, input_tokens: 500, output_tokens: 50 },
  ],
  outcome: { status: 'succeeded' },
};

type Json = Record<string, unknown>;

/** The demo with `simulation` set (behaviour KNOWN for the support project unless given). */
export function simFixture(simulation: Json = {}, edit: (f: Json) => void = () => {}): Json {
  const f = structuredClone(demoFixture()) as Json;
  f.simulation = { behaviours: { projects: [{ project_id: P, ...KNOWN }] }, ...simulation };
  edit(f);
  return f;
}

export async function simMock(simulation: Json = {}, options: CreateAppOptions = {}, edit?: (f: Json) => void): Promise<TestMock> {
  return freshMock({ fixtures: simFixture(simulation, edit), seed: 7, simulation: { mode: 'auto' }, ...options });
}

let nextUpdate = 5000;
/** Posts one chat message to the demo binding; answers the new run's id. */
export async function chat({ http }: TestMock, text = 'Where is my refund?', from: string | number = 424242, updateId = nextUpdate++): Promise<string> {
  const res = await http
    .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
    .set(SECRET)
    .send({ update_id: updateId, message: { from: { id: from }, text } });
  if (res.status !== 200) throw new Error(`chat webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.run_id;
}

export async function getRun({ http }: TestMock, id: string): Promise<Json & { status: string; steps: Json[]; events: Json[]; timing: Json; result: Json }> {
  const res = await http.get(`/api/v3/projects/${P}/runs/${id}`).set(owner);
  if (res.status !== 200) throw new Error(`run ${id}: ${res.status}`);
  return res.body;
}

export async function advance({ http }: TestMock, ms: number) {
  const res = await http.post('/_mock/clock').send({ advance_ms: ms });
  if (res.status !== 200) throw new Error(`clock: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const at = (base: string, ms: number) => new Date(Date.parse(base) + ms).toISOString();

/** The run's lifecycle, read from its events: the statuses it passed through, starting queued. */
export function statusPath(run: { events: unknown[] }): string[] {
  const names: Record<string, string> = {
    'run.queued': 'queued',
    'run.started': 'running',
    'run.waiting_approval': 'waiting_approval',
    'run.succeeded': 'succeeded',
    'run.failed': 'failed',
    'run.cancelled': 'cancelled',
  };
  return ['queued', ...run.events.map((e) => names[(e as Json).type as string]).filter((x) => x !== undefined)];
}
