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
  let end = 0;
  if (url.startsWith(PREFIX)) {
    // The id runs to the next '/' or '?' (two native scans, not a regular expression over a copy of the rest).
    const slash = url.indexOf('/', PREFIX.length);
    const question = url.indexOf('?', PREFIX.length);
    end = Math.min(slash < 0 ? url.length : slash, question < 0 ? url.length : question);
    fromPath = url.slice(PREFIX.length, end);
    rest = url.slice(end);
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
  // Most requests name no sandbox, and most that do name it once: neither allocates more than the answer.
  const id = fromPath ?? fromHeader ?? fromHost;
  if (id === undefined) return null;
  if ((fromHeader !== undefined && fromHeader !== id) || (fromHost !== undefined && fromHost !== id)) {
    const named = [fromPath, fromHeader, fromHost].filter((x): x is string => x !== undefined);
    throw new ApiError('sandbox_conflict', { message: `The request names different sandboxes: ${named.map((x) => x.slice(0, 64)).join(', ')}` });
  }
  return { id, url: fromPath !== undefined ? rest : url, prefix: fromPath !== undefined ? url.slice(0, end) : '' };
}
