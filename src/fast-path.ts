// The fast path: a v3 read (GET, no body) that no fault concerns is answered straight from the route table to Node's
// response, without Koa's context and middleware chain, with the same answer, journal entry and shadow send.
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Context } from 'koa';
import type { ErrorReporter } from './errors.js';
import type { Call, EndpointMiddleware } from './pipeline/index.js';
import { endedSent, errorSent, journalHeaders, keptBody, resultSent, write, type Sent } from './fast-path-sent.js';
import type { RouteTable } from './routes/index.js';
import { routedTargets, type RoutedTarget } from './fast-path-targets.js';
import { address, type AddressedMock } from './pipeline/index.js';
import { journalAnswered, type Answered } from './middleware/index.js';
import type { Arrival } from './judge/index.js';
import type { FaultTally, KeptBody } from './control/index.js';
import { OPERATION_NAMES } from './control/index.js';
import {
  SANDBOX_HEADER,
  addressOf,
  hostMayName,
  pathAddresses,
  type Addressed,
  type LocalSandboxes,
  type RememberedAddress,
  type Served,
} from './sandboxes/index.js';
import { markPathPrefix } from './pipeline/index.js';
import type { ShadowAnswer, ShadowCall } from './shadow/index.js';

const V3 = new Set(OPERATION_NAMES);
/** What makes parseurl (Koa's ctx.path) parse a target the slow way: left to Koa, so both paths read it alike. */
const UNUSUAL = /[\t\n\f\r #\u00a0\ufeff]/;
const NO_HEADERS: Record<string, unknown> = Object.freeze({});

export interface FastPathParts {
  /** The Koa app (built at this call's first use): a handler or error reporter that reads a context gets one of it. */
  app: () => Koa;
  root: AddressedMock;
  table: RouteTable;
  /** In-process sandboxes (absent: none, or kept in shared storage). */
  sandboxes?: LocalSandboxes;
  report: ErrorReporter;
  /** The faults held by every mock of the server (while none, no request looks one up). */
  faults: FaultTally;
  /** Shadow mode: given each answer once it is written, to queue for the target (absent: no shadow target). */
  shadow?: (mock: AddressedMock, call: ShadowCall & ShadowAnswer) => void;
}

/**
 * The server's request listener: the fast path first, Koa's whole chain for everything it does not take. It takes a GET
 * for a route whose pipeline is offered (`EndpointMiddleware.fast`) when the request has one Host, an ordinary target,
 * names no sandbox or one in this process, and its mock has no fault that could match it. Each check is a lookup made
 * once; a request it does not take costs those lookups and nothing else. On shared storage it waits for the same
 * catch-up as the whole chain's (Store.sync), so it sees every write acknowledged, by any instance, before it arrived.
 */
export function fastListener(parts: FastPathParts, full: RequestListener): RequestListener {
  const { app, root, table, sandboxes, report, shadow, faults } = parts;
  let byTarget = pathAddresses<Served, RoutedTarget>();
  // At any sandbox's end every remembered address goes, with the sandbox each found: none is held past its end.
  sandboxes?.onEnd(() => void (byTarget = pathAddresses<Served, RoutedTarget>()));
  const routeOf = routedTargets(table);
  const take = (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || UNUSUAL.test(url)) return false;
    const raw = req.rawHeaders;
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i];
      // The usual spellings compared first: lowering a name makes a new string.
      if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
    }
    if (hosts > 1) return false;
    let mock = root;
    let served: Served | undefined;
    let target = url;
    let prefix = '';
    let id = '';
    let arrived: number | undefined;
    let kept: RememberedAddress<Served, RoutedTarget> | undefined;
    const host = req.headers.host;
    const byPath = url.startsWith('/sandboxes/');
    const byOther = req.headers[SANDBOX_HEADER] !== undefined || hostMayName(host);
    // A path that names a sandbox with none served in this process (shared storage): the whole chain finds it.
    if (byPath && !sandboxes) return false;
    if (byPath || byOther) {
      let to: Addressed | null;
      try {
        // Named by its path alone, the address depends on the target alone: remembered by it, with the sandbox found.
        to = byOther ? addressOf(req) : (kept = byTarget(url));
      } catch {
        return false; // a conflict: the selector refuses it
      }
      if (to) {
        // One reading of the clock times the request and restarts its sandbox's time to live.
        arrived = performance.now();
        served = kept?.found ? sandboxes?.touchAgain(kept.found, arrived) : sandboxes?.touch(to.id, arrived);
        if (!served || served.life.ended) return false;
        if (kept && !kept.found) kept.found = served;
        mock = served.core;
        target = to.url;
        prefix = to.prefix;
        id = to.id;
      }
    }
    if (!target.startsWith('/api/v3/')) return false;
    // A remembered address keeps its target's route: one lookup by the URL finds the sandbox and the route.
    const routed = kept === undefined ? routeOf(target) : kept.routed !== undefined ? kept.routed : (kept.routed = routeOf(target));
    if (!routed) return false;
    // Looked up only while some mock holds a fault, with the route's operation: the request is routed once (the table's
    // rule is operationOf's).
    if (faults.held > 0 && mock.control.faultRegistry.candidates('GET', routed.path, routed.fast.operation).length > 0) return false;
    if (served) {
      // Readdressed as the selector does: the target without its prefix (a Koa context made for it is marked with it).
      req.url = target;
    }
    return answer(req, res, mock, served, id, url, prefix, routed, arrived);
  };

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    mock: AddressedMock,
    /** The sandbox it is for (undefined: the default mock), its id, the URL as it came, and the path prefix it came with. */
    served: Served | undefined,
    id: string,
    url: string,
    prefix: string,
    routed: RoutedTarget,
    /** `performance.now()` when it arrived, if already read (a sandbox's touch read it). */
    arrived: number | undefined,
  ): boolean | Promise<boolean> => {
    const { fast } = routed;
    const r = new FastRequest(req, res, mock, routed, prefix, app, arrived ?? performance.now());
    served?.life.enter();
    // Still in the turn the request arrived in (its sandbox's touch read the time then).
    let sameTurn = true;
    const finish = (sent: Sent | null): boolean => {
      if (!sent) {
        // A result only Koa renders: the read runs again on the whole chain (a read changes nothing).
        mock.observer.leave(r.arrival);
        if (served) sandboxes!.answered(served, sameTurn);
        req.url = url;
        full(req, res);
        return true;
      }
      r.answered(sent);
      let out = sent;
      if (served) {
        sandboxes!.answered(served, sameTurn);
        // Refused by the end of its sandbox while in flight: answered as one sent after the end (the journal keeps what it got).
        if (served.life.ended && sent.status >= 400) out = endedSent(sent, id);
      }
      write(res, out);
      // Compared as the middleware compares: the answer the mock made, before a sandbox's end turned it into a 404.
      if (shadow) {
        try {
          shadow(mock, r);
        } catch (err) {
          report(err, undefined as never); // the answer is out: shadow mode's failure is reported, never the client's
        }
      }
      return true;
    };
    // A store of its own is always current: its request runs at once, with no extra promise or closure. Shared storage:
    // a catch-up begun after the request arrived, shared with the requests around it. A catch-up that failed leaves the
    // request to the whole chain, which catches up again and answers a storage still down as it answers any request.
    const { store } = mock.deps;
    const taken = store.shared
      ? store.sync().then(
          () => run(fast, r, finish, report),
          () => finish(null),
        )
      : run(fast, r, finish, report);
    sameTurn = false;
    return taken;
  };

  return (req, res) => {
    const taken = take(req, res);
    if (taken === false) full(req, res);
    else if (taken !== true) taken.catch((err: unknown) => report(err, undefined as never));
  };
}

/** Runs the pipeline for `r` and hands `finish` its answer, or its error's answer. */
function run(fast: NonNullable<EndpointMiddleware['fast']>, r: FastRequest, finish: (sent: Sent | null) => boolean, report: ErrorReporter) {
  let result: unknown;
  try {
    result = fast.run(r);
  } catch (err) {
    return finish(errorSent(err, report, () => r.ctx));
  }
  if (!(result instanceof Promise)) return finish(resultSent(result));
  return result.then(
    (x) => finish(resultSent(x)),
    (err: unknown) => finish(errorSent(err, report, () => r.ctx)),
  );
}

/**
 * One request on the fast path: what the pipeline reads of it (a Call, its Koa context made only for a handler or error
 * reporter that reads it) and, once answered, what the journal keeps of it (the Answered record): one object for both,
 * as the journal middleware reads both from one Koa context.
 */
class FastRequest implements Call, Answered, ShadowCall, ShadowAnswer {
  readonly method = 'GET';
  readonly headers: IncomingHttpHeaders;
  readonly params: Record<string, string>;
  readonly operation: string;
  readonly path: string;
  readonly querystring: string;
  readonly query: Record<string, string | string[] | undefined>;
  readonly state: Record<string, unknown>;
  readonly atMs: number;
  readonly arrival: Arrival;
  status = 0;
  answer: unknown = undefined;
  readonly rawBody = undefined;
  readonly requestBody = undefined;
  readonly kept = null;
  responseHeaders: Record<string, unknown> = NO_HEADERS;
  responseBody: KeptBody | null = null;
  readonly fault = undefined;
  journalId: number | null = null;
  text = '';
  #ctx: Context | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly mock: AddressedMock,
    routed: RoutedTarget,
    /** The path prefix the request came with ('' without one): marked on the request only when a Koa context is made. */
    private readonly prefix: string,
    private readonly app: () => Koa,
    /** `performance.now()` at its arrival: its duration is counted from it. */
    readonly started: number,
  ) {
    this.headers = req.headers;
    // Shared by every request with this target (frozen): the pipeline only reads them.
    this.params = routed.params as Record<string, string>;
    this.query = routed.query as Record<string, string | string[] | undefined>;
    this.operation = routed.fast.operation;
    this.path = routed.path;
    this.querystring = routed.querystring;
    this.state = { transitions: [], operation: this.operation };
    this.atMs = mock.deps.clock.nowMs();
    this.arrival = mock.observer.arrive(req.headers.authorization);
  }

  get ctx(): Context {
    if (!this.#ctx) {
      const ctx = (this.#ctx = this.app().createContext(this.req, this.res));
      ctx.state = this.state;
      ctx.params = this.params;
      address(ctx, this.mock);
      if (this.prefix) markPathPrefix(this.req, this.prefix);
    }
    return this.#ctx;
  }

  /** Counts the answer in coverage and journals it (the client observer reads it there). */
  answered(sent: Sent): void {
    const { mock, operation } = this;
    const reason = (sent.answer as { detail?: unknown } | undefined)?.detail;
    const code = reason && typeof reason === 'object' && !Array.isArray(reason) ? (reason as { reason_code?: string }).reason_code : undefined;
    if (V3.has(operation)) mock.control.coverageTracker.record(operation, sent.status, code, this.state.transitions as string[]);
    this.status = sent.status;
    this.answer = sent.answer;
    this.responseHeaders = journalHeaders(sent) as Record<string, unknown>;
    this.responseBody = keptBody(sent, mock.control.journal.bodyBytes);
    this.text = sent.text;
    this.journalId = journalAnswered(mock, this);
  }
}
