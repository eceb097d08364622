// Which sandbox a request is for: a path prefix (/sandboxes/{id}/...), the X-Mock-Sandbox header, or the host {id}.localhost.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';
import { hostName } from '../middleware/index.js';
import { flat } from './ids.js';
import { remembered } from '../remembered.js';

export const SANDBOX_HEADER = 'x-mock-sandbox';
const PREFIX = '/sandboxes/';
const LOCALHOST = '.localhost';
/** Whether a Host may name a sandbox ({id}.localhost): host names are case-insensitive, so `ABC.LOCALHOST` names `abc`. */
const MAY_NAME = /\.localhost/i;
export const hostMayName = (host: string | undefined): host is string => host !== undefined && MAY_NAME.test(host);

/** The sandbox a request names, and its URL with the prefix taken off (`url` is unchanged without one). */
export interface Addressed {
  id: string;
  url: string;
  /** The path prefix it came with ('/sandboxes/{id}'), or '' (header or host). */
  prefix: string;
}

/** The id a '/sandboxes/{id}...' target names, that target without its prefix, and the prefix (one parse rule). */
function parsePath(url: string): Addressed {
  // The id runs to the next '/' or '?' (two native scans, not a regular expression over a copy of the rest).
  const slash = url.indexOf('/', PREFIX.length);
  const question = url.indexOf('?', PREFIX.length);
  const end = Math.min(slash < 0 ? url.length : slash, question < 0 ? url.length : question);
  const rest = url.slice(end);
  return { id: url.slice(PREFIX.length, end), url: rest.startsWith('/') ? rest : `/${rest}`, prefix: url.slice(0, end) };
}

/**
 * The sandbox `req` is for, or null for the default mock. Two forms that name different sandboxes are 400
 * `sandbox_conflict`: a client that means one sandbox and reaches another would see the wrong state silently.
 */
export function addressOf(req: IncomingMessage): Addressed | null {
  const url = req.url ?? '/';
  const byPath = url.startsWith(PREFIX) ? parsePath(url) : undefined;
  const fromPath = byPath?.id;
  const header = req.headers[SANDBOX_HEADER];
  const fromHeader = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
  const host = req.headers.host;
  let fromHost: string | undefined;
  if (hostMayName(host)) {
    const name = hostName(host);
    const label = name.endsWith(LOCALHOST) ? name.slice(0, -LOCALHOST.length) : '';
    if (label !== '' && !label.includes('.')) fromHost = label;
  }
  // Most requests name no sandbox, and most that do name it once: neither allocates more than the answer.
  const id = fromPath ?? fromHeader ?? fromHost;
  if (id === undefined) return null;
  if ((fromHeader !== undefined && fromHeader !== id) || (fromHost !== undefined && fromHost !== id)) {
    const named = [fromPath, fromHeader, fromHost].filter((x): x is string => x !== undefined);
    throw new ApiError('sandbox_conflict', { message: `The request names different sandboxes: ${named.map((x) => x.slice(0, 64)).join(', ')}` });
  }
  return byPath ?? { id, url, prefix: '' };
}

/** A remembered address, and the sandbox a request to it found (whoever remembers lets it go at the sandbox's end). */
export interface RememberedAddress<S, R = never> extends Addressed {
  found?: S;
  /** What the caller routed `url` to (null: no route), made once: a target routes alike whichever request sends it. */
  routed?: R | null;
}

/** Targets longer than this are parsed each time: a remembered one is at most this many characters. */
const REMEMBERED_URL_MAX = 256;
/** Targets remembered at most: the memory this takes does not grow with the traffic or the sandboxes. */
const REMEMBERED_MAX = 1024;

/**
 * The address of a '/sandboxes/{id}...' target that names its sandbox by path alone (no header, no *.localhost host),
 * remembered by target: clients repeat their targets, and a remembered address's strings are flat copies whose hashes
 * V8 keeps, so finding the sandbox and routing the rest do not hash and compare fresh slices of the URL each time.
 * At the bound the memory starts again empty (a server's targets are few; a scan of many only costs the parse).
 */
export function pathAddresses<S = never, R = never>(): (url: string) => RememberedAddress<S, R> {
  const limits = { keys: REMEMBERED_MAX, keyLength: REMEMBERED_URL_MAX };
  // One string for one target, whichever sandbox it follows: the route's lookup by it, made for every sandbox in turn,
  // then compares a string it has already read rather than each sandbox's own copy of the same characters.
  const target = remembered(flat, limits);
  return remembered((url): RememberedAddress<S, R> => {
    const parsed = parsePath(url);
    return { id: flat(parsed.id), url: target(parsed.url), prefix: flat(parsed.prefix), found: undefined, routed: undefined };
  }, limits);
}
