// The in-process request path: fetch and inject without a socket, and interception of real origins; the same app serves all three.
import type { RequestListener } from 'node:http';
import { inProcessClient, type FetchInput, type InjectOptions, type InjectResponse } from './fetch.js';
import { intercept, type InterceptHandle, type InterceptOptions } from './intercept.js';

export { DEFAULT_ORIGIN } from './fetch.js';
export interface InProcess {
  /** WHATWG fetch served in process; a path ('/api/v3/...') resolves against http://localhost. */
  fetch(input: FetchInput, init?: RequestInit): Promise<Response>;
  /** The raw form: light-my-request's options and response (payload, json(), headers, statusCode). */
  inject(options: InjectOptions | string): Promise<InjectResponse>;
  /** Answers requests to `origins` made with global fetch, node:http or node:https (axios, got, node-fetch) until restored. */
  intercept(origins: string | URL | (string | URL)[], options?: InterceptOptions): InterceptHandle;
}

export function inProcess(dispatch: RequestListener): InProcess {
  const client = inProcessClient(dispatch);
  return {
    fetch: client.fetch,
    inject: client.inject,
    intercept: (origins, options) => intercept({ answer: client.answer, fetch: client.fetch }, origins, options),
  };
}
