// The fast path: a v3 read (GET, no body) that no fault, shadow target or shared storage concerns is answered straight from
// the route table to Node's response, without Koa's context and middleware chain, with the same answer and journal entry.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Context } from 'koa';
import { errorAnswer, sandboxNotFound, type ErrorReporter } from './errors.js';
import { Reply, type Call, type EndpointMiddleware } from './pipeline/index.js';
import { JsonText } from './pipeline/index.js';
import type { RouteTable } from './routes/index.js';
import { address, type AddressedMock } from './pipeline/index.js';
import { journalAnswered } from './middleware/index.js';
import { OPERATION_NAMES } from './control/index.js';
import { jsonBody, rawBody } from './control/index.js';
import { SANDBOX_HEADER, addressOf, type Served } from './sandboxes/index.js';
import { markPathPrefix } from './pipeline/index.js';

const V3 = new Set(OPERATION_NAMES);
const JSON_TYPE = 'application/json; charset=utf-8';
/** What makes parseurl (Koa's ctx.path) parse a target the slow way: left to Koa, so both paths read it alike. */
const UNUSUAL = /[\t\n\f\r #\u00a0\ufeff]/;

/** An answer as Koa would have sent it: status, headers in the order Koa sets them, the body text, and the body the observer reads. */
interface Sent {
  status: number;
  headers: [string, string | number][];
  text: string;
  /** The body as the journal middleware saw it before writing it out (an object for JSON). */
  answer: unknown;
  /** The body already text (JsonText): the journal keeps it as it is; else it keeps the JSON of `answer`. */
  wasText: boolean;
}

/** A JSON object body as Koa sends one (`ctx.body = object`: Content-Type unless set, Content-Length once serialized). */
function objectSent(status: number, body: object, first: [string, string][]): Sent {
  const headers: [string, string | number][] = first;
  if (!first.some(([name]) => name.toLowerCase() === 'content-type')) headers.push(['Content-Type', JSON_TYPE]);
  const text = JSON.stringify(body);
  headers.push(['Content-Length', Buffer.byteLength(text)]);
  return { status, headers, text, answer: body, wasText: false };
}

const isPlainBody = (b: unknown): b is object =>
  typeof b === 'object' && b !== null && !Buffer.isBuffer(b) && typeof (b as { pipe?: unknown }).pipe !== 'function' && !(b instanceof Blob);

/** The answer of a handler's result, or null for a result only Koa renders (an empty status, a body that is no JSON object). */
function resultSent(result: unknown): Sent | null {
  if (result instanceof JsonText) {
    return {
      status: 200,
      headers: [
        ['Content-Type', JSON_TYPE],
        ['Content-Length', Buffer.byteLength(result.text)],
      ],
      text: result.text,
      answer: result.text,
      wasText: true,
    };
  }
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
function errorSent(raw: unknown, report: ErrorReporter, ctx: () => Context): Sent {
  const a = errorAnswer(raw);
  if (a.report) report(raw, ctx());
  const text = JSON.stringify(a.body);
  const headers: [string, string | number][] = [['Content-Type', JSON_TYPE], ...a.headers, ['Content-Length', Buffer.byteLength(text)]];
  return { status: a.status, headers, text, answer: a.body, wasText: false };
}

/** The selector's refusal of a request whose sandbox ended in flight, over what was answered (Koa keeps the headers set). */
function endedSent(sent: Sent, id: string): Sent {
  const body = sandboxNotFound(id).body();
  const text = JSON.stringify(body);
  const headers = sent.headers.filter(([name]) => name.toLowerCase() !== 'content-length');
  headers.push(['Content-Length', Buffer.byteLength(text)]);
  return { status: 404, headers, text, answer: body, wasText: false };
}

export interface FastPathParts {
  app: Koa;
  root: AddressedMock;
  table: RouteTable;
  /** In-process sandboxes (absent: none, or kept in shared storage). */
  sandboxes?: { touch(id: string): Served | undefined; answered(s: Served): void };
  report: ErrorReporter;
}

/**
 * The server's request listener: the fast path first, Koa's whole chain for everything it does not take. It takes a GET
 * for a route whose pipeline is offered (`EndpointMiddleware.fast`) when the request has one Host, an ordinary target,
 * names no sandbox or one in this process, and its mock has no fault that could match it and a store of its own. Each
 * check is a lookup made once; a request it does not take costs those lookups and nothing else.
 */
export function fastListener(parts: FastPathParts, full: RequestListener): RequestListener {
  const { app, root, table, sandboxes, report } = parts;
  const take = (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || UNUSUAL.test(url)) return false;
    const raw = req.rawHeaders;
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
    if (hosts > 1) return false;
    let mock = root;
    let served: Served | undefined;
    let target = url;
    let prefix = '';
    let id = '';
    const host = req.headers.host;
    if (url.startsWith('/sandboxes/') || req.headers[SANDBOX_HEADER] !== undefined || (host !== undefined && host.includes('.localhost'))) {
      let to: ReturnType<typeof addressOf>;
      try {
        to = addressOf(req);
      } catch {
        return false; // a conflict: the selector refuses it
      }
      if (to) {
        served = sandboxes?.touch(to.id);
        if (!served || served.life.ended) return false;
        mock = served.core;
        target = to.url;
        prefix = to.prefix;
        id = to.id;
      }
    }
    if (!target.startsWith('/api/v3/')) return false;
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    const querystring = q < 0 ? '' : target.slice(q + 1);
    const found = table.lookup('GET', path);
    const fast = 'handler' in found ? (found.handler as EndpointMiddleware).fast : undefined;
    if (!fast || mock.deps.store.shared || mock.control.faultRegistry.candidates('GET', path).length > 0) return false;
    if (served) {
      // Readdressed as the selector does: the target without its prefix, and the prefix remembered for the pages.
      req.url = target;
      if (prefix) markPathPrefix(req, prefix);
    }
    return answer(req, res, mock, served && { served, id, url }, fast, found as { params: Record<string, string> }, path, querystring);
  };

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    mock: AddressedMock,
    sandbox: { served: Served; id: string; url: string } | undefined,
    fast: NonNullable<EndpointMiddleware['fast']>,
    found: { params: Record<string, string> },
    path: string,
    querystring: string,
  ): boolean | Promise<boolean> => {
    const state: Record<string, unknown> = { transitions: [], operation: fast.operation };
    let ctx: Context | undefined;
    // Made only for a handler that reads it, or an error reporter: a Koa context over the same request and state.
    const context = () => {
      if (!ctx) {
        ctx = app.createContext(req, res);
        ctx.state = state;
        ctx.params = found.params;
        address(ctx, mock);
      }
      return ctx;
    };
    const call: Call = {
      method: 'GET',
      headers: req.headers,
      params: found.params,
      query: searchParams(querystring),
      state,
      mock,
      get ctx() {
        return context();
      },
    };
    const served = sandbox?.served;
    served?.life.enter();
    const atMs = mock.deps.clock.nowMs();
    const started = performance.now();
    const arrival = mock.observer.arrive(req.headers.authorization);
    const finish = (sent: Sent | null): boolean => {
      if (!sent) {
        // A result only Koa renders: the read runs again on the whole chain (a read changes nothing).
        mock.observer.leave(arrival);
        if (served) sandboxes!.answered(served);
        req.url = sandbox?.url ?? req.url;
        full(req, res);
        return true;
      }
      const reason = (sent.answer as { detail?: unknown } | undefined)?.detail;
      const code = reason && typeof reason === 'object' && !Array.isArray(reason) ? (reason as { reason_code?: string }).reason_code : undefined;
      if (V3.has(fast.operation)) mock.control.coverageTracker.record(fast.operation, sent.status, code, state.transitions as string[]);
      const limit = mock.control.journal.bodyBytes;
      const responseHeaders: Record<string, unknown> = {};
      for (const [name, value] of sent.headers) responseHeaders[name.toLowerCase()] = value;
      journalAnswered(mock, {
        atMs,
        started,
        arrival,
        method: 'GET',
        path,
        querystring,
        headers: req.headers,
        status: sent.status,
        operation: fast.operation,
        answer: sent.answer,
        rawBody: undefined,
        requestBody: undefined,
        kept: null,
        responseHeaders,
        responseBody: sent.wasText ? rawBody(sent.text, limit) : jsonBody(sent.answer, limit, sent.text),
        fault: undefined,
      });
      let out = sent;
      if (served) {
        sandboxes!.answered(served);
        // Refused by the end of its sandbox while in flight: answered as one sent after the end (the journal keeps what it got).
        if (served.life.ended && sent.status >= 400) out = endedSent(sent, sandbox!.id);
      }
      write(res, out);
      return true;
    };
    let result: unknown;
    try {
      result = fast.run(call);
    } catch (err) {
      return finish(errorSent(err, report, context));
    }
    if (!(result instanceof Promise)) return finish(resultSent(result));
    return result.then(
      (r) => finish(resultSent(r)),
      (err: unknown) => finish(errorSent(err, report, context)),
    );
  };

  return (req, res) => {
    const taken = take(req, res);
    if (taken === false) full(req, res);
    else if (taken !== true) taken.catch((err: unknown) => report(err, undefined as never));
  };
}

/** As Koa parses `ctx.query`: each key once, a repeated key's values as an array. */
function searchParams(querystring: string): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[]> = {};
  if (querystring === '') return out;
  const params = new URLSearchParams(querystring);
  for (const key of params.keys()) {
    const values = params.getAll(key);
    Object.defineProperty(out, key, { value: values.length <= 1 ? values[0] : values, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** Writes `sent` as Koa's respond() would: status and headers set one by one (in-process responses read them back), then the text. */
function write(res: ServerResponse, sent: Sent): void {
  if (res.writableEnded || res.headersSent) return;
  res.statusCode = sent.status;
  for (const [name, value] of sent.headers) res.setHeader(name, value);
  res.end(sent.text);
}
