// Shadow mode's middleware: after the mock answered, the same request goes to the target (off the request's path), and
// the two answers' differences go to the journal entry and the mock's drift record, redacted and bounded.
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import { Redactor, type SecretIndex } from '../control/index.js';
import type { Journal, DriftLog } from '../control/index.js';
import type { DriftItem } from '../schemas/index.js';
import type { ShadowSettings } from './options.js';
import type { ShadowSender, TargetAnswer } from './sender.js';
import { forwardedQuery } from './query.js';

/** The comparison of two answers (the conformance command's comparator). */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}
export type Compare = (operation: string, mock: Answer, target: Answer) => { differences: DriftItem[]; compatible: unknown[]; warnings: DriftItem[] };

/** Differences kept per request (in its journal entry and in the groups); the rest of a request's are not recorded. */
export const DRIFT_PER_REQUEST = 16;
/** A value longer than this as JSON is kept as its cut text. */
export const DRIFT_VALUE_CHARS = 512;

/** What the server shares: the target's settings, its queue, the comparator, the error reporter. */
export interface ShadowParts {
  settings: ShadowSettings;
  sender: ShadowSender;
  compare: Compare;
  report: (err: unknown) => void;
}

/** What one mock records into, and what the middleware needs of that mock. */
export interface ShadowRecord {
  drift: DriftLog;
  journal: Journal;
  /** The credentials the mock holds, the shadow token among its fixed ones: no drift record shows them. */
  secrets: () => SecretIndex;
  /** Whether the mock accepts every request as an owner (then the target always gets the shadow token). */
  authOff: boolean;
  nowIso: () => string;
}

/** What the comparison reads of an answered v3 request, from Koa's context or from the fast path alike. */
export interface ShadowCall {
  readonly method: string;
  /** Path and query as the mock saw them (a sandbox's prefix already taken off). */
  readonly path: string;
  readonly querystring: string;
  /** The request's headers as Node parsed them (lowercase names). */
  readonly headers: IncomingHttpHeaders;
  readonly operation?: string;
  /** Its journal entry (the target's differences are added to it), or null. */
  readonly journalId: number | null;
}

/** The mock's answer as it was sent. */
export interface ShadowAnswer {
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, unknown>>;
  readonly text: string;
}

const V3 = /^\/api\/v3(?:\/|$)/;

/** A value as a drift record keeps it: whole when short, else its JSON text cut with a marker. */
function cut(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  return text.length <= DRIFT_VALUE_CHARS ? value : `${text.slice(0, DRIFT_VALUE_CHARS)}… (${text.length} characters)`;
}

const parsed = (text: string): unknown => {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Whether a request may go to the target: GET always; a write only with `writes`, and only under the disposable project. */
function shadowed(settings: ShadowSettings, method: string, path: string): boolean {
  if (method === 'GET') return true;
  if (!settings.writes || settings.disposableProject === undefined) return false;
  const prefix = `/api/v3/projects/${encodeURIComponent(settings.disposableProject)}`;
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** A request header as Koa's ctx.get reads it: '' when absent. */
const header = (headers: IncomingHttpHeaders, name: string): string => (headers[name] as string | undefined) || '';

/** The headers the target gets (its query: query.ts): never the client's credentials; the shadow token when the client sent credentials (or auth is off). */
function targetHeaders(from: IncomingHttpHeaders, p: ShadowParts, authOff: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: header(from, 'accept') || 'application/json' };
  const type = header(from, 'content-type');
  if (type) headers['content-type'] = type;
  if (p.settings.token !== undefined && (authOff || header(from, 'authorization') !== '')) headers.authorization = `Bearer ${p.settings.token}`;
  return headers;
}

const stringHeaders = (headers: Record<string, unknown>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
};

/** `recordOf` gives the mock a request was answered from (null: it records nothing). */
export function shadowMiddleware(p: ShadowParts, recordOf: (ctx: Context) => ShadowRecord | null): Middleware {
  return async function shadow(ctx, next) {
    await next();
    if (!V3.test(ctx.path)) return;
    const r = recordOf(ctx);
    if (!r) return;
    if (!shadowed(p.settings, ctx.method, ctx.path)) return r.drift.skipped('method');
    if (ctx.state.fault || ctx.state.unanswered) return r.drift.skipped('fault');
    const raw = ctx.state.rawBody as Buffer | undefined;
    // The journal wrote a JSON answer as text; a stream or bytes cannot be compared, nor a write whose body was never read.
    const unread = ctx.method !== 'GET' && raw === undefined && Number(ctx.get('content-length') || 0) > 0;
    if (typeof ctx.body !== 'string' || unread) return r.drift.skipped('not_comparable');
    const call: ShadowCall = {
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      headers: ctx.req.headers,
      operation: ctx.state.operation as string | undefined,
      journalId: (ctx.state.journalId as number | undefined) ?? null,
    };
    shadowAnswered(p, r, call, { status: ctx.status, responseHeaders: ctx.response.headers as Record<string, unknown>, text: ctx.body }, raw);
  };
}

/**
 * A comparable answer, compared later: the request goes to the target's queue if the sender admits it (else the drop is
 * counted), and the comparison runs when the target answers. Nothing here waits; the client's answer is not held.
 */
export function shadowAnswered(p: ShadowParts, r: ShadowRecord, call: ShadowCall, answer: ShadowAnswer, raw?: Buffer): void {
  const refused = p.sender.admit();
  if (refused) return r.drift.dropped(refused);
  const mock = { status: answer.status, headers: stringHeaders(answer.responseHeaders), text: answer.text };
  const operation = call.operation ?? 'unmatched';
  const requestId = call.journalId;
  const at = r.nowIso();
  const query = forwardedQuery(call.querystring, r.secrets());
  p.sender.submit({
    method: call.method,
    target: query ? `${call.path}?${query}` : call.path,
    headers: targetHeaders(call.headers, p, r.authOff),
    body: call.method === 'GET' ? undefined : raw,
    unreachable: () => r.drift.unreachable(),
    answered: (target) => {
      try {
        record(p, r, operation, requestId, at, mock, target);
      } catch (err) {
        p.report(err);
      }
    },
  });
}

/** The first DRIFT_PER_REQUEST differences, each redacted and cut: what a journal entry and the groups keep of a request. */
export function boundedDrift(differences: readonly DriftItem[], redactor: Redactor): DriftItem[] {
  return differences.slice(0, DRIFT_PER_REQUEST).map((d) => {
    const item: DriftItem = { field: redactor.text(String(d.field)) };
    if (d.mock !== undefined) item.mock = cut(redactor.deep(d.mock));
    if (d.target !== undefined) item.target = cut(redactor.deep(d.target));
    if (d.level !== undefined) item.level = d.level;
    return item;
  });
}

function record(
  p: ShadowParts,
  r: ShadowRecord,
  operation: string,
  requestId: number | null,
  at: string,
  mock: TargetAnswer & { text: string },
  target: TargetAnswer,
): void {
  if (target.text === null) return r.drift.skipped('not_comparable');
  const mockBody = parsed(mock.text);
  const targetBody = parsed(target.text);
  const comparison = p.compare(
    operation,
    { status: mock.status, headers: mock.headers, body: mockBody },
    { status: target.status, headers: target.headers, body: targetBody },
  );
  let drift: DriftItem[] = [];
  // Differences first, then the optional fields the target dropped (warnings), within the per-request bound.
  const found = [...comparison.differences, ...comparison.warnings.map((w) => ({ ...w, level: 'warning' as const }))];
  if (found.length > 0) {
    // What either answer carried under a secret name, and every credential the mock holds (the shadow token too), is replaced.
    const redactor = new Redactor(r.secrets());
    redactor.collectHeaders(mock.headers);
    redactor.collectHeaders(target.headers);
    redactor.collect(mockBody);
    redactor.collect(targetBody);
    drift = boundedDrift(found, redactor);
  }
  if (drift.length > 0 && requestId !== null) r.journal.addDrift(requestId, drift);
  r.drift.compared(operation, requestId, at, drift, comparison.compatible.length);
}
