// mock.intercept: requests to chosen origins (global fetch, node:http, node:https) are answered in process through @mswjs/interceptors.
import { createRequire } from 'node:module';
import type { BatchInterceptor } from '@mswjs/interceptors';
import type { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import type { FetchInterceptor } from '@mswjs/interceptors/fetch';

export interface InterceptOptions {
  /**
   * What happens to a request for an origin no active intercept handles: 'bypass' (default) lets it
   * go out to the network; 'error' fails it with a TypeError naming the URL, as a network error would.
   */
  onUnhandled?: 'bypass' | 'error';
}

/** Stops the interception: `restore()`, or `using` / `await using` a handle. */
export interface InterceptHandle {
  /** The origins this handle answers for. */
  readonly origins: readonly string[];
  restore(): void;
  [Symbol.dispose](): void;
  [Symbol.asyncDispose](): Promise<void>;
}

type Answer = (request: Request) => Promise<Response>;
type GlobalFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** How one mock answers: a Request the interceptor built (node:http, node:https), or a global fetch call as it was made (mock.fetch). */
export interface Answerer {
  answer: Answer;
  fetch: GlobalFetch;
}

interface Registration extends Answerer {
  onUnhandled: 'bypass' | 'error';
}

/**
 * One process-wide interceptor shared by every handle: the library keeps one patch per module in a
 * global, and two of its instances disposed out of order would remove each other's patch. Applied by
 * the first handle, disposed with the last, so globalThis.fetch and http.request come back as they were.
 * The record lives on globalThis under a registered symbol, so the package's ES module and CommonJS builds
 * loaded in one process share it too: one claim per origin, one patch, whichever copy intercepts.
 */
interface Interception {
  routes: Map<string, Registration>;
  handles: Set<Registration>;
  interceptor: BatchInterceptor<(ClientRequestInterceptor | FetchInterceptor)[]> | null;
  /** The fetch the interceptor installed, and ours over it (see shortcut). */
  patched: { below: GlobalFetch; ours: GlobalFetch } | null;
}
const SHARED = Symbol.for('project-runtime-mock.interception.v1');
const shared = ((globalThis as { [SHARED]?: Interception })[SHARED] ??= { routes: new Map(), handles: new Set(), interceptor: null, patched: null });
const { routes, handles } = shared;

function urlOf(input: string | URL | Request): string {
  return input instanceof Request ? input.url : input instanceof URL ? input.href : String(input);
}

/**
 * A global fetch for an intercepted origin goes straight to its mock, without the interceptor building a Request,
 * emitting an event and wrapping the answer: the same answer, a third of the cost. Anything else (another origin, a
 * relative or malformed URL) goes to the interceptor's fetch below, which bypasses or refuses it as before.
 */
function shortcut(below: GlobalFetch): GlobalFetch {
  return function fetch(input, init) {
    let origin: string;
    try {
      origin = new URL(urlOf(input)).origin;
    } catch {
      return below(input, init);
    }
    const route = routes.get(origin);
    return route ? route.fetch(input, init) : below(input, init);
  };
}

/**
 * The interceptors library is loaded by the first intercept, not with the package: a test file that never intercepts
 * does not pay for it at start. `intercept()` is synchronous, so its CommonJS build is required.
 */
function interceptors() {
  const require = createRequire(import.meta.url);
  return {
    BatchInterceptor: (require('@mswjs/interceptors') as typeof import('@mswjs/interceptors')).BatchInterceptor,
    ClientRequestInterceptor: (require('@mswjs/interceptors/ClientRequest') as typeof import('@mswjs/interceptors/ClientRequest')).ClientRequestInterceptor,
    FetchInterceptor: (require('@mswjs/interceptors/fetch') as typeof import('@mswjs/interceptors/fetch')).FetchInterceptor,
  };
}

function start(): void {
  if (shared.interceptor) return;
  const { BatchInterceptor, ClientRequestInterceptor, FetchInterceptor } = interceptors();
  const interceptor = new BatchInterceptor({ name: 'project-runtime-mock', interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()] });
  shared.interceptor = interceptor;
  interceptor.on('request', async ({ request, controller }) => {
    const origin = new URL(request.url).origin;
    const route = routes.get(origin);
    if (route) {
      // A connection a fault broke fails the client's request as a network error would (axios, got, fetch alike).
      const answered = await route.answer(request).catch((err: unknown) => err as Error);
      if (answered instanceof Response) controller.respondWith(answered);
      // A caller that gave up (its signal) was already answered by the interceptor itself.
      else if (!request.signal.aborted) controller.errorWith(answered);
      return;
    }
    if ([...handles].some((h) => h.onUnhandled === 'error')) {
      controller.errorWith(new TypeError(`project-runtime-mock: no intercept handles ${request.method} ${request.url} (onUnhandled: 'error')`));
    }
    // Otherwise the request is left alone and goes out as usual.
  });
  interceptor.apply();
  const below = globalThis.fetch;
  shared.patched = { below, ours: shortcut(below) };
  globalThis.fetch = shared.patched.ours;
}

function stop(): void {
  const { interceptor, patched } = shared;
  if (!interceptor || handles.size > 0) return;
  // Put back the interceptor's own patch, so its dispose restores the fetch from before the first intercept.
  if (patched && globalThis.fetch === patched.ours) globalThis.fetch = patched.below;
  shared.patched = null;
  interceptor.dispose();
  shared.interceptor = null;
}

/** Normalizes 'https://api.example.test/' (or a URL) to its origin; a path other than '/' is refused. */
function originOf(o: string | URL): string {
  const url = new URL(String(o));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`intercept: ${o} is not an http(s) origin`);
  if (url.pathname !== '/' || url.search || url.hash) throw new TypeError(`intercept: give an origin (scheme, host, port), not a URL with a path: ${o}`);
  return url.origin;
}

/** Answers requests for `origins` with `answer` until the handle is restored. */
export function intercept(answerer: Answerer, origins: string | URL | (string | URL)[], options: InterceptOptions = {}): InterceptHandle {
  const list = [...new Set((Array.isArray(origins) ? origins : [origins]).map(originOf))];
  if (list.length === 0) throw new TypeError('intercept: name at least one origin');
  for (const o of list) {
    if (routes.has(o)) throw new Error(`intercept: ${o} is already intercepted by another mock; restore that handle first`);
  }
  const reg: Registration = { ...answerer, onUnhandled: options.onUnhandled ?? 'bypass' };
  for (const o of list) routes.set(o, reg);
  handles.add(reg);
  start();
  let active = true;
  const restore = () => {
    if (!active) return;
    active = false;
    for (const o of list) if (routes.get(o) === reg) routes.delete(o);
    handles.delete(reg);
    stop();
  };
  return {
    origins: list,
    restore,
    [Symbol.dispose]: restore,
    [Symbol.asyncDispose]: async () => restore(),
  };
}
