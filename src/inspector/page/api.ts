// The page's one way to the control surface: same-origin fetch with the control token (when one is set) as a header.
// The token is asked for once, kept in sessionStorage (this tab only, gone when it closes), and never put in a URL.
import type { components } from '../../client/generated.js';
import { routeUrl, type Answer, type CallInput, type ControlPath, type VerbOf } from './routes.js';

/** The control surface's answers, typed from the OpenAPI document (the same types as the typed client's). */
export type S = components['schemas'];

const TOKEN_KEY = 'project-runtime-mock.control-token';
const HEADER = 'X-Mock-Control-Token';

/** A refused call: the status and the mock's error body (management envelope or validation items). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(describe(status, body));
  }
}

/** One line for people: the envelope's message, or each validation item as `loc: msg`. */
function describe(status: number, body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (Array.isArray(detail)) return detail.map((i: { loc?: unknown[]; msg?: string }) => `${(i.loc ?? []).join('.')}: ${i.msg}`).join('; ');
  if (detail && typeof detail === 'object' && 'message' in detail) return `${(detail as { message: string }).message} (${status})`;
  return `The mock answered ${status}.`;
}

type Listener = () => void;
const tokenListeners = new Set<Listener>();
let tokenWanted = false;

export const storedToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const needsToken = (): boolean => tokenWanted;
export function onTokenNeeded(fn: Listener): () => void {
  tokenListeners.add(fn);
  return () => tokenListeners.delete(fn);
}
export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  tokenWanted = false;
  for (const fn of tokenListeners) fn();
}
export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** The page opened at /sandboxes/{id}/_mock/ui shows that sandbox: its calls go under the same prefix. */
const OPENED_PREFIX = /^\/sandboxes\/[a-z0-9]{1,40}(?=\/_mock\/ui)/.exec(location.pathname)?.[0] ?? '';
/** So does a page opened at `{id}.localhost` (one label before `localhost`, as the server reads hosts). */
const OPENED_AT_SANDBOX_HOST = /^[^.]+\.localhost$/.test(location.hostname);
const SANDBOX_ID = /^[a-z0-9]{1,40}$/;

/** True when the page may pick a sandbox: opened at the default mock's /_mock/ui (sandboxes do not nest). */
export const canPick = (): boolean => OPENED_PREFIX === '' && !OPENED_AT_SANDBOX_HOST;

/**
 * The sandbox the default mock's page shows: `?sandbox={id}` in its URL (the picker sets it, so a reload or a shared
 * link keeps it); null for the default mock, a malformed id, or a page opened at a sandbox's own address.
 */
export function pickedSandbox(): string | null {
  const id = canPick() ? new URLSearchParams(location.search).get('sandbox') : null;
  return id && SANDBOX_ID.test(id) ? id : null;
}

/** Where the views' calls go: the prefix the page was opened under, or the picked sandbox's, or the default mock. */
const base = (): string => OPENED_PREFIX || (pickedSandbox() ? `/sandboxes/${pickedSandbox()}` : '');

/** The id of the sandbox the page shows, however it was reached (prefix, host or pick); null for the default mock. */
export const shownSandbox = (): string | null =>
  OPENED_PREFIX ? OPENED_PREFIX.slice('/sandboxes/'.length) : OPENED_AT_SANDBOX_HOST ? location.hostname.split('.')[0] : pickedSandbox();

/** Shows sandbox `id` (null: the default mock): the URL's query says so, and the hash (the section) stays. */
export function pickSandbox(id: string | null): void {
  const query = new URLSearchParams(location.search);
  if (id) query.set('sandbox', id);
  else query.delete('sandbox');
  const search = query.toString();
  history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}

/**
 * Calls a /_mock route of the mock the page shows: `call('GET', '/_mock/projects/{project_id}', { path: { project_id } })`
 * resolves with that route's answer, rejects with ApiFailure. `body` is sent as JSON (a string as is).
 */
export function call<P extends ControlPath, M extends VerbOf<P>>(method: M, route: P, input: CallInput<P, M> = {}): Promise<Answer<P, M>> {
  return send(base() + routeUrl(route, input.path, input.query), method, input.body);
}

/** Calls a /_mock route of the default mock whichever sandbox is shown (sandboxes are managed there only). */
export function callDefault<P extends ControlPath, M extends VerbOf<P>>(method: M, route: P, input: CallInput<P, M> = {}): Promise<Answer<P, M>> {
  return send(routeUrl(route, input.path, input.query), method, input.body);
}

/** The default mock's Prometheus exposition (text, outside the JSON control document). */
export const metricsText = (): Promise<string> => send('/_mock/metrics', 'GET');

async function send<T>(url: string, method: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const token = storedToken();
  if (token) headers[HEADER] = token;
  let payload: string | undefined;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(url, { method, headers, body: payload, cache: 'no-store' });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  if (!res.ok) {
    if (res.status === 401 && (json as { detail?: { reason_code?: string } })?.detail?.reason_code === 'control_token_invalid') {
      // Only a refusal of the token held now asks for one: a call sent before a token was given answers late.
      if (!tokenWanted && token === storedToken()) {
        tokenWanted = true;
        for (const fn of tokenListeners) fn();
      }
    }
    throw new ApiFailure(res.status, json);
  }
  return json as T;
}

/** Something changed the state (a clock move, a step, a reset): views that show state reload. */
const changeListeners = new Set<Listener>();
export function onStateChanged(fn: Listener): () => void {
  changeListeners.add(fn);
  return () => changeListeners.delete(fn);
}
export function stateChanged(): void {
  for (const fn of changeListeners) fn();
}
