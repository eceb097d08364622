// mock.fetch and mock.inject: a request served by the app's request listener in process, with no socket (fetch and
// interception through our own transport, inject through light-my-request, whose options and response it exposes).
import type { RequestListener, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type * as LightMyRequest from 'light-my-request';
import { InProcessResponse, standardResponse } from './response.js';
import { brokenAnswer } from './broken.js';
import { exchange, type Answer, type Outgoing } from './transport.js';

let injector: typeof LightMyRequest.inject | undefined;

/**
 * light-my-request, required at the first mock.inject, once per process: mock.fetch and interception use our own
 * transport, so a mock that never injects never loads it. It is CommonJS; require keeps the
 * call synchronous and skips the ESM interop wrapper. The bundles read it from one file of their own
 * (dist/light-my-request.cjs, scripts/lazy-require.ts) instead of resolving its files.
 */
function lightMyRequest(): typeof LightMyRequest.inject {
  return (injector ??= createRequire(import.meta.url)('light-my-request') as typeof LightMyRequest.inject);
}

/** Relative inputs ('/api/v3/...') resolve against this origin. */
export const DEFAULT_ORIGIN = 'http://localhost';

export type InjectOptions = LightMyRequest.InjectOptions;
export type InjectResponse = LightMyRequest.Response;
export type FetchInput = string | URL | Request;

type HeadersInit = ConstructorParameters<typeof Headers>[0];

/**
 * The headers exactly as fetch would send them: its own Headers reads every form (object, pairs, Headers), trims each
 * value's leading and trailing whitespace, refuses what a socket could not carry, and joins repeated names. A copy of
 * that by hand read `Content-Type: " "` as a type where the socket sends none.
 */
function headersOf(init: HeadersInit | undefined, into: Record<string, string>): void {
  if (!init) return;
  for (const [k, v] of init instanceof Headers ? init : new Headers(init)) into[k] = v;
}

/** What fetch would send, read without building a Request when the input is simple (a string or URL and a string body). */
async function prepare(input: FetchInput, init: RequestInit | undefined, origin: string): Promise<Outgoing> {
  const body = init?.body;
  const simple = !(input instanceof Request) && (body === undefined || body === null || typeof body === 'string');
  if (simple) {
    const url = new URL(String(input), origin).href;
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    headersOf(init?.headers, headers);
    // As fetch does: a string body without a type is text/plain.
    if (typeof body === 'string' && headers['content-type'] === undefined) headers['content-type'] = 'text/plain;charset=UTF-8';
    if ((method === 'GET' || method === 'HEAD') && typeof body === 'string') throw new TypeError(`Request with ${method} method cannot have body.`);
    return { method, url, headers, payload: body ?? undefined };
  }
  // Anything else (a Request, FormData, Blob, a stream, URLSearchParams) goes through the standard Request.
  const request = input instanceof Request && init === undefined ? input : new Request(input instanceof Request ? input : new URL(String(input), origin), init);
  const headers: Record<string, string> = {};
  for (const [k, v] of request.headers) headers[k] = v;
  const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  return { method: request.method, url: request.url, headers, payload };
}

const toResponse = (res: Answer, method: string, url: string): Response => new InProcessResponse(res, method, url) as unknown as Response;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

let sinceTurn = 0;
/** Requests between two turns: at most this many finished responses (~13 KB each) wait for their callbacks. */
const TURN_EVERY = 256;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs one injected request; resolves with light-my-request's response. Its fake socket finishes each
 * write in a setImmediate, which a tight `await` loop never lets run: every 256 requests wait one turn
 * of the event loop so those callbacks (each holding a finished response) do not pile up (a turn every 64
 * cost 15-20% more per request in batches of 1,000, measured; 256 keeps at most ~3 MB waiting).
 */
async function injectOnce(dispatch: RequestListener, options: InjectOptions): Promise<InjectResponse> {
  if (++sinceTurn >= TURN_EVERY) {
    sinceTurn = 0;
    await nextTurn();
  }
  return new Promise((resolve, reject) => {
    lightMyRequest()(dispatch, options, (err, res) => (err ? reject(err) : resolve(res!)));
  });
}

/**
 * One request as a fetch caller sees it: the answer, or what a broken connection does to fetch (brokenAnswer); a
 * signal that fires stops the waiting and closes the response, as a client leaving closes its socket.
 */
async function served(dispatch: RequestListener, out: Outgoing, signal: AbortSignal | undefined | null, build: (res: Answer) => Response): Promise<Response> {
  let res: ServerResponse | undefined;
  const answer = exchange(dispatch, out, (r) => (res = r)).then(build, (err: unknown) => brokenAnswer(err, res, out.method));
  if (!signal) return answer;
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      reject(abortError(signal));
      // The handler runs to its end either way (as a server would); a fault holding the answer sees the client leave.
      res?.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([answer, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export interface InProcessClient {
  fetch(input: FetchInput, init?: RequestInit): Promise<Response>;
  inject(options: InjectOptions | string): Promise<InjectResponse>;
  /** An intercepted request, answered with a standard Response (the interceptor wraps its stream and handles aborts). */
  answer(request: Request): Promise<Response>;
}

/** The in-process client of one request listener (a Koa app's callback()). */
export function inProcessClient(dispatch: RequestListener, origin = DEFAULT_ORIGIN): InProcessClient {
  return {
    async fetch(input, init) {
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      if (signal?.aborted) throw abortError(signal);
      const p = await prepare(input, init, origin);
      if (signal?.aborted) throw abortError(signal);
      return served(dispatch, p, signal, (res) => toResponse(res, p.method, p.url));
    },
    inject(options) {
      return injectOnce(dispatch, typeof options === 'string' ? { url: options } : options);
    },
    async answer(request) {
      const headers: Record<string, string> = {};
      for (const [k, v] of request.headers) headers[k] = v;
      const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
      return served(dispatch, { method: request.method, url: request.url, headers, payload }, request.signal, (res) => standardResponse(res, request.method));
    },
  };
}
