// Which sandbox a request is for: a path prefix (/sandboxes/{id}/...), the X-Mock-Sandbox header, or the host {id}.localhost.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';
import { hostName } from '../middleware/index.js';

export const SANDBOX_HEADER = 'x-mock-sandbox';
const PREFIX = '/sandboxes/';
const LOCALHOST = '.localhost';

/** The sandbox a request names, and its URL with the prefix taken off (`url` is unchanged without one). */
export interface Addressed {
  id: string;
  url: string;
  /** The path prefix it came with ('/sandboxes/{id}'), or '' (header or host). */
  prefix: string;
}

/**
 * The sandbox `req` is for, or null for the default mock. Two forms that name different sandboxes are 400
 * `sandbox_conflict`: a client that means one sandbox and reaches another would see the wrong state silently.
 */
export function addressOf(req: IncomingMessage): Addressed | null {
  const url = req.url ?? '/';
  let fromPath: string | undefined;
  let rest = url;
  if (url.startsWith(PREFIX)) {
    const end = url.slice(PREFIX.length).search(/[/?]/);
    fromPath = end < 0 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, PREFIX.length + end);
    rest = url.slice(PREFIX.length + fromPath.length);
    if (!rest.startsWith('/')) rest = `/${rest}`;
  }
  const header = req.headers[SANDBOX_HEADER];
  const fromHeader = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
  const host = req.headers.host;
  let fromHost: string | undefined;
  if (host !== undefined && host.includes(LOCALHOST)) {
    const name = hostName(host);
    const label = name.endsWith(LOCALHOST) ? name.slice(0, -LOCALHOST.length) : '';
    if (label !== '' && !label.includes('.')) fromHost = label;
  }
  // Most requests name no sandbox: they allocate nothing here.
  if (fromPath === undefined && fromHeader === undefined && fromHost === undefined) return null;
  const named = [fromPath, fromHeader, fromHost].filter((x): x is string => x !== undefined);
  if (named.some((x) => x !== named[0])) {
    throw new ApiError('sandbox_conflict', { message: `The request names different sandboxes: ${named.map((x) => x.slice(0, 64)).join(', ')}` });
  }
  return { id: named[0], url: fromPath !== undefined ? rest : url, prefix: fromPath !== undefined ? `${PREFIX}${fromPath}` : '' };
}
