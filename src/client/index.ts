// `project-runtime-mock/client`: a typed HTTP client for the v3 API and the mock's /_mock control surface. Its types are
// generated at build time from the served /openapi.json (openapi-typescript); requests go through openapi-fetch.
import createFetchClient, { type Client } from 'openapi-fetch';
import { credentialsMiddleware, type Credentials } from './credentials.js';
import { controlOperations, type ControlOperations } from './control.js';
import { v3Operations, type V3Operations } from './v3.js';
import type { paths } from './generated.js';

export { ControlError, hmacSha256Hex, type BrokerSigning, type CallOptions } from './calls.js';
export type { Credentials } from './credentials.js';
export type { paths, components, operations } from './generated.js';
export type * from './generated.js';
export { OPERATIONS } from './generated.js';

/**
 * The `reason_code` of an error answer (management envelope), or undefined for a validation error (its `detail` is the
 * list of items) or no error: `reasonCodeOf((await client.cancelRun(p, r)).error) === 'run_not_cancellable'`.
 */
export function reasonCodeOf(error: unknown): string | undefined {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  return detail && typeof detail === 'object' && !Array.isArray(detail) ? (detail as { reason_code?: string }).reason_code : undefined;
}

export interface ClientOptions extends Credentials {
  /** Where the service (or the mock) answers, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** Another fetch (defaults to the global one, looked up at each request, so an intercept installed later is used). */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

export type MockClient = V3Operations & {
  /** The control surface (/_mock): only the mock has it. `control.createSandbox()` resolves with a client bound to the new sandbox. */
  control: ControlOperations<MockClient>;
  /** The underlying openapi-fetch client (`api.GET('/api/v3/...', {...})`), credentials included. */
  api: Client<paths>;
  /** The same client with other credentials (another principal's token, no admin key, ...). */
  with(credentials: Credentials): MockClient;
};

/**
 * The global fetch as it is when a request is sent, not when the client was made: a client created at module level,
 * before `mock.intercept(...)` replaced `globalThis.fetch`, still reaches the intercept (and its `onUnhandled`).
 */
const globalFetch = (request: Request): Promise<Response> => globalThis.fetch(request);

/**
 * `createClient({ baseUrl, token?, adminKey?, controlToken? })`. Each credential is sent only where the document says
 * the operation accepts it: the token on management endpoints, the admin key on endpoints 2, 3, 13, 18 and 20, the
 * control token on /_mock routes.
 */
export function createClient(options: ClientOptions): MockClient {
  const api = createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: options.fetch ?? globalFetch, headers: options.headers });
  api.use(credentialsMiddleware(options));
  return {
    ...v3Operations(api),
    control: controlOperations(api, (id) => createClient({ ...options, baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/sandboxes/${id}` })),
    api,
    with: (credentials) => createClient({ ...options, ...credentials }),
  };
}
