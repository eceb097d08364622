// Request guards before any route: one Host per request (every path), and the /_mock control surface as an admin API (Host, content type, Origin, token).
//
// It runs before routing, on the path prefix, so every control route (today's and any later one:
// the simulation, the inspector page) is covered without opting in, and an unknown /_mock path is
// refused the same way. The router matches paths case-insensitively, so the prefix check does too.
import type { Context, Middleware } from 'koa';
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../errors.js';
import { isJsonContentType } from '../body/index.js';
import { secretEquals } from '../domain/index.js';
import { isControlPath } from './journal.js';

const CONTROL_TOKEN_HEADER = 'x-mock-control-token';

export interface ControlGuardOptions {
  /** Host names or addresses accepted besides the loopback ones (the bound host, --allowed-host); `*` accepts any. */
  allowedHosts?: readonly string[];
  /** When set, every /_mock request must carry it in X-Mock-Control-Token. */
  controlToken?: string;
}

/**
 * Reads that need no control token (Host, content type and Origin still apply):
 * - the inspector page's shell and its built files (GET /_mock/ui, /_mock/ui/page.js, ...): static, the same bytes for
 *   everyone, no state and no secret. A browser cannot add a header to a navigation; the page asks for the token and
 *   sends it on each of its own requests;
 * - GET /_mock/health: liveness and the mock clock, nothing else, so a container engine's health check needs no secret.
 */
const TOKEN_FREE_PATH = /^\/_mock\/(?:health|ui(?:\/[^/]*)?)$/i;

/**
 * The host part of a Host header or an allowed-host entry, lowercased, without port, IPv6 brackets
 * or a trailing dot: `[::1]:4010` -> `::1`, `Mock.Example.:80` -> `mock.example`.
 */
export function hostName(value: string): string {
  let h = value.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    h = end > 0 ? h.slice(1, end) : h;
  } else if (h.indexOf(':') === h.lastIndexOf(':')) {
    // one colon at most: name:port or a.b.c.d:port (a bare IPv6 address has several and no port)
    h = h.split(':')[0];
  }
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** `localhost`, `*.localhost` (RFC 6761: always loopback), 127.0.0.0/8 and ::1 (in any spelling, IPv4-mapped included). */
export function isLoopback(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const kind = isIP(name);
  return kind !== 0 && LOOPBACK.check(name, kind === 4 ? 'ipv4' : 'ipv6');
}

/** JSON as FastAPI reads it (the one rule, src/body): application/json or application/*+json (parameters ignored). */
function isJsonMediaType(contentType: string): boolean {
  return contentType.trim() !== '' && isJsonContentType(contentType);
}

/**
 * The host a request names. In absolute form (`GET http://evil.example/_mock/state HTTP/1.1`) the request target's
 * authority is the host and the Host header is ignored (RFC 9112 section 3.2.2), so the target is what is checked;
 * a target that is neither origin form nor a URL names no allowed host (`[invalid]`). Otherwise the Host header.
 */
export function requestHost(target: string, hostHeader: string): string {
  if (target.startsWith('/') || target === '*') return hostHeader;
  try {
    return new URL(target).host || '[invalid]';
  } catch {
    return '[invalid]';
  }
}

export function controlGuard(options: ControlGuardOptions = {}): Middleware {
  const allowed = new Set((options.allowedHosts ?? []).map(hostName).filter((h) => h !== ''));
  const anyHost = allowed.has('*');
  const hostAllowed = (name: string) => anyHost || isLoopback(name) || allowed.has(name);
  const token = options.controlToken;

  // Not async: every check is synchronous (Koa turns a throw into a rejection), and a v3 request passes through
  // without an extra promise and its microtask turns.
  return function guardControl(ctx, next) {
    if (!isControlPath(ctx.path)) return next();

    // DNS rebinding: a page on attacker.example whose name now resolves to 127.0.0.1 sends `Host: attacker.example`.
    // A request without Host (HTTP/1.0) cannot come from a browser, so it is not refused.
    const host = requestHost(ctx.req.url ?? '/', ctx.get('host'));
    if (host !== '' && !hostAllowed(hostName(host))) {
      throw new ApiError('host_not_allowed', {
        message: `Host ${hostName(host)} is not allowed on the control surface; allow it with --allowed-host ${hostName(host)} (createApp({ allowedHosts }))`,
      });
    }

    // A form (text/plain, urlencoded, multipart) can be posted from any page without a preflight: only JSON is taken,
    // whatever the method or length (an empty form post declares a type too).
    const type = ctx.get('content-type');
    if (type !== '' && !isJsonMediaType(type)) throw new ApiError('unsupported_media_type');

    // A page may still send a body-less or untyped request (fetch with mode no-cors): browsers name its origin.
    const origin = ctx.get('origin');
    if (origin !== '' && !originAllowed(origin, hostAllowed)) {
      throw new ApiError('origin_not_allowed', { message: `Requests from origin ${origin} are not allowed on the control surface.` });
    }

    if (token !== undefined && !((ctx.method === 'GET' || ctx.method === 'HEAD') && TOKEN_FREE_PATH.test(ctx.path))) {
      const given = ctx.get(CONTROL_TOKEN_HEADER);
      // Compare even when absent, so a missing token costs what a wrong one does.
      if (!secretEquals(given, token) || given === '') throw new ApiError('control_token_invalid');
    }
    return next();
  };
}

function originAllowed(origin: string, hostAllowed: (name: string) => boolean): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (sandboxed frames, file: pages) and anything unparsable
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && hostAllowed(hostName(url.host));
}

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
