// GET targets the fast path has routed, remembered by target: clients repeat their reads (a poll of a run), and a
// remembered target skips the split, the route table's walk and the query's parse, and hands on the same frozen objects.
import type { EndpointMiddleware } from './pipeline/index.js';
import type { RouteTable } from './routes/index.js';
import { remembered } from './remembered.js';

/** What a v3 GET target routes to: the same for every request with this target, whichever mock it is for. */
export interface RoutedTarget {
  readonly path: string;
  readonly querystring: string;
  /** The route's parameters (frozen: every request with this target reads this one object). */
  readonly params: Readonly<Record<string, string>>;
  /** The query as Koa parses `ctx.query` (frozen, as `params`). */
  readonly query: Readonly<Record<string, string | string[] | undefined>>;
  readonly fast: NonNullable<EndpointMiddleware['fast']>;
}

/** Targets longer than this are routed each time: a remembered one is at most this many characters. */
const REMEMBERED_TARGET_MAX = 256;
/** Targets remembered at most: the memory does not grow with the traffic. At the bound the table starts again empty. */
const REMEMBERED_MAX = 1024;

/**
 * The route of a target under /api/v3/ (no prefix of a sandbox), or null when no offered pipeline serves it for GET.
 * The table never changes once built, so what a target routes to never changes either. Remembering the same objects
 * also keeps their strings' hashes: the record lookups by these parameters do not hash fresh slices of the URL.
 */
export function routedTargets(table: RouteTable): (target: string) => RoutedTarget | null {
  return remembered((target) => route(table, target), { keys: REMEMBERED_MAX, keyLength: REMEMBERED_TARGET_MAX });
}

function route(table: RouteTable, target: string): RoutedTarget | null {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const querystring = q < 0 ? '' : target.slice(q + 1);
  const found = table.lookup('GET', path);
  const fast = 'handler' in found ? (found.handler as EndpointMiddleware).fast : undefined;
  if (!fast) return null;
  const params = Object.freeze((found as { params: Record<string, string> }).params);
  return Object.freeze({ path, querystring, params, query: searchParams(querystring), fast });
}

const NO_QUERY = Object.freeze({});

/** As Koa parses `ctx.query`: each key once, a repeated key's values as an array. */
function searchParams(querystring: string): Readonly<Record<string, string | string[] | undefined>> {
  if (querystring === '') return NO_QUERY;
  const out: Record<string, string | string[]> = {};
  const params = new URLSearchParams(querystring);
  for (const key of params.keys()) {
    const values = params.getAll(key);
    Object.defineProperty(out, key, { value: values.length <= 1 ? values[0] : values, writable: true, enumerable: true, configurable: true });
  }
  // A repeated key's array is frozen too: no reader may change what later requests read.
  for (const key in out) if (Array.isArray(out[key])) Object.freeze(out[key]);
  return Object.freeze(out);
}
