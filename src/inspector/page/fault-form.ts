// The fault form's fields and the POST /_mock/faults document they make (the server validates it), and one line per fault.
import { PACED_TRANSPORT, TRANSPORT_FAULTS } from '../../schemas/transport-faults.js';

export type FaultKind = 'status' | 'delay' | 'rate_limit' | 'transport';
/** Short enough to read whole in the Kind list at 800 px (tested); the form's fields say the rest. */
export const FAULT_KINDS: [FaultKind, string][] = [
  ['status', 'Answer instead'],
  ['delay', 'Only wait'],
  ['rate_limit', 'Rate limit (429)'],
  ['transport', 'Break the connection'],
];
/** The transport kinds the server accepts, from its table. */
export { TRANSPORT_FAULTS as TRANSPORTS, PACED_TRANSPORT } from '../../schemas/transport-faults.js';
export const DELAYS = ['fixed', 'uniform', 'lognormal'];

export const EMPTY_FORM = {
  kind: 'status' as FaultKind,
  method: 'GET',
  path: '/api/v3/**',
  operation: '',
  principal: '',
  match: '',
  status: '503',
  body: '',
  headers: '',
  delay: 'fixed',
  delay_ms: '',
  min_ms: '',
  max_ms: '',
  median_ms: '',
  p99_ms: '',
  times: '1',
  after: '',
  probability: '',
  requests: '',
  per_ms: '',
  transport: TRANSPORT_FAULTS[0] as string,
  bytes_per_s: '',
};
export type FaultForm = typeof EMPTY_FORM;

type Spec = Record<string, unknown>;

/** A JSON object typed into a textarea, or an error naming the field. */
function object(text: string, name: string): Spec | string {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Spec) : `${name} should be a JSON object.`;
  } catch {
    return `${name} is not valid JSON.`;
  }
}

/** The document for POST /_mock/faults, or a message for a field the page can check itself (JSON syntax). */
export function faultSpec(form: FaultForm): { spec: Spec } | { error: string } {
  const spec: Spec = { method: form.method, path: form.path };
  const num = (k: keyof FaultForm, into = k as string, target: Spec = spec) => {
    if (form[k].trim()) target[into] = Number(form[k]);
  };
  const match: Spec = {};
  if (form.match.trim()) {
    const m = object(form.match, 'Match');
    if (typeof m === 'string') return { error: m };
    Object.assign(match, m);
  }
  if (form.operation.trim()) match.operation = form.operation.trim();
  if (form.principal.trim()) match.principal = form.principal.trim();
  if (Object.keys(match).length) spec.match = match;
  if (form.kind === 'status') {
    num('status');
    if (form.body.trim()) {
      try {
        spec.body = JSON.parse(form.body);
      } catch {
        return { error: 'The body is not valid JSON.' };
      }
    }
  }
  if ((form.kind === 'status' || form.kind === 'rate_limit') && form.headers.trim()) {
    const h = object(form.headers, 'Headers');
    if (typeof h === 'string') return { error: h };
    spec.headers = h;
  }
  if (form.kind === 'rate_limit') {
    const rl: Spec = {};
    num('requests', 'requests', rl);
    num('per_ms', 'per_ms', rl);
    spec.rate_limit = rl;
  }
  if (form.kind === 'transport') {
    spec.transport = form.transport;
    if (form.transport === PACED_TRANSPORT) num('bytes_per_s');
  }
  if (form.delay === 'fixed') num('delay_ms');
  else if (form.delay === 'uniform') spec.delay_ms = { distribution: 'uniform', min_ms: Number(form.min_ms), max_ms: Number(form.max_ms) };
  else spec.delay_ms = { distribution: 'lognormal', median_ms: Number(form.median_ms), p99_ms: Number(form.p99_ms) };
  num('times');
  if (form.kind !== 'rate_limit') {
    num('after');
    num('probability');
  }
  return { spec };
}

interface FaultView {
  status?: number;
  delay_ms?: number | { distribution: string; min_ms?: number; max_ms?: number; median_ms?: number; p99_ms?: number };
  rate_limit?: { requests: number; per_ms: number };
  transport?: string;
  bytes_per_s?: number;
  after?: number;
  probability?: number;
  match?: Record<string, unknown>;
}

/** What a fault does, in a few words: `status 503`, `429 past 10 per 60000 ms`, `slow_body at 512 B/s`, `waits 5-20 ms`. */
export function describeFault(f: FaultView): string {
  const parts: string[] = [];
  if (f.rate_limit) parts.push(`429 past ${f.rate_limit.requests} per ${f.rate_limit.per_ms} ms`);
  if (f.status !== undefined) parts.push(`status ${f.status}`);
  if (f.transport) parts.push(f.transport === PACED_TRANSPORT ? `${PACED_TRANSPORT} at ${f.bytes_per_s} B/s` : f.transport);
  const d = f.delay_ms;
  if (typeof d === 'number' && d > 0) parts.push(`waits ${d} ms`);
  else if (typeof d === 'object') parts.push(d.distribution === 'uniform' ? `waits ${d.min_ms}-${d.max_ms} ms` : `waits ~${d.median_ms} ms (p99 ${d.p99_ms})`);
  if (f.after) parts.push(`after ${f.after}`);
  if (f.probability !== undefined) parts.push(`p=${f.probability}`);
  if (f.match) parts.push(`when ${Object.keys(f.match).join(', ')}`);
  return parts.join(', ');
}
