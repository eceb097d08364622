// Shadow mode: the mock answers every v3 request and also sends it to a target, recording where the two answers differ.
// createApp imports this folder only when its `shadow` option is given (a mock without one never loads it).
import type { Context, Middleware } from 'koa';
import type { ErrorReporter } from '../errors.js';
import { DriftBudget, DriftLog, type SecretIndex } from '../control/index.js';
import { shadowSettings, shownUrl, type ShadowOptions, type ShadowSettings } from './options.js';
import { ShadowSender } from './sender.js';
import {
  shadowAnswered,
  shadowMiddleware as middleware,
  type Compare,
  type ShadowAnswer,
  type ShadowCall,
  type ShadowParts,
  type ShadowRecord,
} from './middleware.js';

export { type ShadowOptions } from './options.js';
export { DRIFT_PER_REQUEST, DRIFT_VALUE_CHARS, type Compare, type ShadowAnswer, type ShadowCall, type ShadowRecord } from './middleware.js';
export { NOTICE_INTERVAL_MS } from './target-health.js';
export { shadowFlags, SHADOW_USAGE } from './flags.js';

/** What every mock of one server shares: the target, its queue and rate, whether it answers. */
export interface ShadowServer {
  settings: ShadowSettings;
  sender: ShadowSender;
  /** The target's URL as it may be shown. */
  url: string;
  /** The bytes the drift records of all the server's mocks hold together. */
  driftBudget: DriftBudget;
  /** The answer comparator (the conformance command's, held to the mock's /openapi.json). */
  compare: Compare;
  /** A new drift record of one mock of the server. */
  driftLog(): DriftLog;
  /** The server's shadow middleware: `recordOf` gives the record of the mock a request was answered from. */
  middleware(recordOf: (ctx: Context) => ShadowRecord | null, report: ErrorReporter): Middleware;
  /**
   * What the fast path calls once it has written a GET's answer (a v3 read with a text body and no fault, which the
   * middleware would compare too): the request is queued for the target, or its drop counted, as the middleware does.
   */
  answered(report: ErrorReporter): (record: ShadowRecord, call: ShadowCall & ShadowAnswer) => void;
}

/** Checks createApp's `shadow` (a TypeError names the rule it breaks) and builds the server's sender around `compare`. */
export function shadowServer(options: ShadowOptions, log: (line: string) => void, compare: Compare): ShadowServer {
  const settings = shadowSettings(options);
  const url = shownUrl(settings.url);
  const server: ShadowServer = {
    settings,
    url,
    sender: new ShadowSender(settings, log, url),
    driftBudget: new DriftBudget(),
    compare,
    driftLog: () => driftLog(server),
    middleware: (recordOf, report) => middleware(shadowParts(server, report), recordOf),
    answered: (report) => {
      const parts = shadowParts(server, report);
      return (record, call) => shadowAnswered(parts, record, call, call);
    },
  };
  return server;
}

/** One mock's drift record (empty and disabled without a shadow server: what a mock builds when shadow mode is off). */
export const driftLog = (server: ShadowServer | null): DriftLog =>
  new DriftLog(server?.sender ?? null, server ? { url: server.url, writes: server.settings.writes } : null, server?.driftBudget);

/** What a mock records into: its drift record, and the credentials it holds (the shadow token among them). */
export interface MockShadow {
  drift: DriftLog;
  secrets: () => SecretIndex;
}

/** What the middleware and the fast path's hook share of the server: its target, queue, comparator and error reporter. */
const shadowParts = (server: ShadowServer, report: ErrorReporter): ShadowParts => ({
  settings: server.settings,
  sender: server.sender,
  compare: server.compare,
  report: (err: unknown) => report(err, undefined as never),
});
