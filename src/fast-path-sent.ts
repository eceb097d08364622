// The fast path's answers as Koa would send them (status, headers in Koa's order, text), and the writing of one to Node's
// response; the answer of a JsonText is built once and shared while that text is cached.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { errorAnswer, sandboxNotFound, type ErrorReporter } from './errors.js';
import { Reply, JsonText } from './pipeline/index.js';
import { jsonBody, rawBody, type KeptBody } from './control/index.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/**
 * The responses of a server the mock runs itself (the CLI's): nobody reads their headers back, so the head goes out in
 * one writeHead. A listener in someone else's server (mock.callback() under their middleware, light-my-request in
 * process) gets each header set, so res.getHeader() reads them as after Koa.
 */
export class OwnedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}

/** An answer as Koa would have sent it: status, headers in the order Koa sets them, the body text, and the body the observer reads. */
export interface Sent {
  readonly status: number;
  readonly headers: readonly (readonly [string, string | number])[];
  readonly text: string;
  /** The body as the journal middleware saw it before writing it out (an object for JSON). */
  readonly answer: unknown;
  /** The body already text (JsonText): the journal keeps it as it is; else it keeps the JSON of `answer`. */
  readonly wasText: boolean;
  /** Made at first use: the headers as one flat list for writeHead, and as the journal keeps them (lowercase names). */
  flat?: readonly (string | number)[];
  journalHeaders?: Readonly<Record<string, unknown>>;
  /** The journal's copy of the body, for the body limit it was made with. */
  kept?: { readonly limit: number; readonly body: KeptBody | null };
}

/** A JSON object body as Koa sends one (`ctx.body = object`: Content-Type unless set, Content-Length once serialized). */
function objectSent(status: number, body: object, first: [string, string | number][]): Sent {
  const headers = first;
  if (!first.some(([name]) => name.toLowerCase() === 'content-type')) headers.push(['Content-Type', JSON_TYPE]);
  const text = JSON.stringify(body);
  headers.push(['Content-Length', Buffer.byteLength(text)]);
  return { status, headers, text, answer: body, wasText: false };
}

const isPlainBody = (b: unknown): b is object =>
  typeof b === 'object' && b !== null && !Buffer.isBuffer(b) && typeof (b as { pipe?: unknown }).pipe !== 'function' && !(b instanceof Blob);

/**
 * The answer of each JsonText, made once: a JsonText is immutable and cached with the record it was made from, so its
 * answer is the same for every request that gets it (frozen: a reader that tried to change it would throw). Weak: it
 * goes when its JsonText leaves the cache.
 */
const ofText = new WeakMap<JsonText, Sent>();

function textSent(result: JsonText): Sent {
  let sent = ofText.get(result);
  if (sent === undefined) {
    const headers = Object.freeze([
      Object.freeze(['Content-Type', JSON_TYPE] as const),
      Object.freeze(['Content-Length', Buffer.byteLength(result.text)] as const),
    ]);
    sent = { status: 200, headers, text: result.text, answer: result.text, wasText: true };
    ofText.set(result, sent);
  }
  return sent;
}

/** The answer of a handler's result, or null for a result only Koa renders (an empty status, a body that is no JSON object). */
export function resultSent(result: unknown): Sent | null {
  if (result instanceof JsonText) return textSent(result);
  if (result instanceof Reply) {
    const own = Object.entries(result.headers);
    if (!isPlainBody(result.body) || result.status === 204 || result.status === 205 || result.status === 304) return null;
    if (own.some(([name]) => name.toLowerCase() === 'content-length')) return null;
    // Koa sets the content type after the reply's own headers (ctx.set each, then ctx.body), so it comes after them.
    return objectSent(result.status, result.body, own);
  }
  return isPlainBody(result) ? objectSent(200, result, []) : null;
}

/** A thrown error as the error renderer answers it: the body's Content-Type, its own headers, then Content-Length. */
export function errorSent(raw: unknown, report: ErrorReporter, ctx: () => Context): Sent {
  const a = errorAnswer(raw);
  if (a.report) report(raw, ctx());
  const text = JSON.stringify(a.body);
  const headers: [string, string | number][] = [['Content-Type', JSON_TYPE], ...a.headers, ['Content-Length', Buffer.byteLength(text)]];
  return { status: a.status, headers, text, answer: a.body, wasText: false };
}

/** The selector's refusal of a request whose sandbox ended in flight, over what was answered (Koa keeps the headers set). */
export function endedSent(sent: Sent, id: string): Sent {
  const body = sandboxNotFound(id).body();
  const text = JSON.stringify(body);
  const headers = sent.headers.filter(([name]) => name.toLowerCase() !== 'content-length');
  headers.push(['Content-Length', Buffer.byteLength(text)]);
  return { status: 404, headers, text, answer: body, wasText: false };
}

/** The response headers as the journal keeps them: lowercase names, made once per answer (frozen: entries share it). */
export function journalHeaders(sent: Sent): Readonly<Record<string, unknown>> {
  if (sent.journalHeaders) return sent.journalHeaders;
  const out: Record<string, unknown> = {};
  for (const [name, value] of sent.headers) out[name.toLowerCase()] = value;
  return (sent.journalHeaders = Object.freeze(out));
}

/** The body as the journal keeps it under `limit`, made once per answer and limit. */
export function keptBody(sent: Sent, limit: number): KeptBody | null {
  if (sent.kept?.limit === limit) return sent.kept.body;
  const body = sent.wasText ? rawBody(sent.text, limit) : jsonBody(sent.answer, limit, sent.text);
  sent.kept = { limit, body };
  return body;
}

/**
 * Writes `sent` as Koa's respond() would. An owned response gets the status and headers in one writeHead (the same bytes
 * on the wire as setting them one by one, at less cost); any other gets them set one by one, so it can read them back.
 * A response someone else's server already ended gets nothing; one whose head it already sent gets the body alone.
 */
export function write(res: ServerResponse, sent: Sent): void {
  if (res.writableEnded) return;
  if (res.headersSent) return void res.end(sent.text);
  if (res instanceof OwnedResponse) {
    if (!sent.flat) {
      const flat: (string | number)[] = [];
      for (const [name, value] of sent.headers) flat.push(name, value);
      sent.flat = flat;
    }
    res.writeHead(sent.status, sent.flat as string[]);
  } else {
    res.statusCode = sent.status;
    for (const [name, value] of sent.headers) res.setHeader(name, value);
  }
  res.end(sent.text);
}
