// One Host per request, and one that agrees with an absolute-form target: else 400 before any route (or sandbox) runs.
import type { Context, Middleware } from 'koa';
import { ApiError } from '../errors.js';
import { hostName } from './control-guard.js';

/** The port a URL's scheme implies, so `Host: a` and `http://a:80/` agree. */
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** `name:port` of a Host header value or a URL authority, lowercased, with the scheme's port when none is given. */
function authority(value: string, protocol: string): string {
  const name = hostName(value);
  const port = /:(\d+)$/.exec(value.trim())?.[1] ?? DEFAULT_PORTS[protocol] ?? '';
  return `${name}:${port}`;
}

/**
 * Node keeps the first of several Host headers and drops the rest, so the checks that read Host (the control surface's
 * allowed hosts, a sandbox named by `{id}.localhost`) would see one while a proxy in front saw another. Two Host headers,
 * or a Host that names another host than the absolute-form target (`GET http://a/ HTTP/1.1` with `Host: b`), are refused
 * as HTTP/1.1 says a server must: 400 `host_invalid`, in the management envelope, on every path.
 */
export function hostCheck(): Middleware {
  return function checkHost(ctx, next) {
    const raw = ctx.req.rawHeaders;
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
    if (hosts > 1) return refuse(ctx, `The request has ${hosts} Host headers; send one.`);
    const target = ctx.req.url ?? '/';
    const host = ctx.req.headers.host;
    if (hosts === 1 && host !== undefined && !target.startsWith('/') && target !== '*') {
      let url: URL | undefined;
      try {
        url = new URL(target);
      } catch {
        url = undefined;
      }
      if (!url || authority(url.host, url.protocol) !== authority(host, url.protocol)) {
        return refuse(ctx, `The Host header (${hostName(host).slice(0, 64)}) does not name the host of the request target.`);
      }
    }
    return next();
  };
}

/** Answered here, before the error renderer and the journal: no mock was addressed yet. */
function refuse(ctx: Context, message: string): void {
  const err = new ApiError('host_invalid', { message });
  ctx.status = err.status;
  ctx.body = err.body();
}
