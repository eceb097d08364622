// One flat route table compiled from every route module's router: a request finds its route by segment count and
// literal segments (no walk over every layer's regular expression, no per-request middleware chain), matching as @koa/router does.
import type { Middleware } from 'koa';
import { asciiLower, routedCount, segmentMeets } from '../path-segments.js';

/** A route module's declarations: the pipeline's Router (pipeline/route-list.ts), read as its list of layers. */
export interface RouteSource {
  readonly stack: readonly { readonly path: unknown; readonly methods: readonly string[]; readonly stack: readonly unknown[] }[];
}

interface Route {
  /** The pattern as registered ('/api/v3/projects/:project_id/runs/:run_id'). */
  path: string;
  methods: readonly string[];
  /** Per path segment: the literal in lowercase, or null for a parameter. */
  segments: (string | null)[];
  /** Parameter names, in segment order. */
  names: string[];
  handler: Middleware;
}

/** The methods @koa/router answers 405 for (anything else is 501). */
const IMPLEMENTED = new Set(['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE']);

/** As @koa/router decodes a parameter: percent-decoded, or kept raw when that fails. */
function decodeParam(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function compile(path: string): Pick<Route, 'segments' | 'names'> {
  const segments: (string | null)[] = [];
  const names: string[] = [];
  for (const part of path.split('/').slice(1)) {
    const param = /^:([A-Za-z_$][\w$]*)$/.exec(part);
    if (param) {
      segments.push(null);
      names.push(param[1]);
    } else if (part === '' || /[:*?(){}+]/.test(part)) {
      throw new Error(`route table: unsupported path pattern ${path}`);
    } else {
      segments.push(asciiLower(part));
    }
  }
  return { segments, names };
}

/** A layer's middleware run in order (one, for every endpoint today). */
function chain(stack: Middleware[]): Middleware {
  if (stack.length === 1) return stack[0];
  return (ctx, next) => {
    const run = (i: number): Promise<unknown> => (i === stack.length ? next() : Promise.resolve(stack[i](ctx, () => run(i + 1))));
    return run(0);
  };
}

/** The routes of `routers`, in registration order, grouped by segment count. */
function build(routers: readonly RouteSource[]): Map<number, Route[]> {
  const bySize = new Map<number, Route[]>();
  for (const router of routers) {
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string' || layer.methods.length === 0)
        throw new Error(`route table: only method routes with string paths are supported (${String(layer.path)})`);
      const route: Route = { path: layer.path, methods: [...layer.methods], ...compile(layer.path), handler: chain(layer.stack as Middleware[]) };
      const list = bySize.get(route.segments.length) ?? [];
      list.push(route);
      bySize.set(route.segments.length, list);
    }
  }
  return bySize;
}

function matches(route: Route, parts: string[], count: number): boolean {
  for (let i = 0; i < count; i++) if (!segmentMeets(route.segments[i], parts[i + 1])) return false;
  return true;
}

/** What a request finds: its route's pattern and parameters, or the methods its path allows. */
type Lookup = { path: string; params: Record<string, string>; handler: Middleware } | { allowed: string[] };

export interface RouteTable extends Middleware {
  lookup(method: string, path: string): Lookup;
}

/**
 * The middleware that routes every request: the first route (in registration order) whose path and
 * method match handles it with `ctx.params` set; a path matched only for other methods answers 405
 * (501 for an unknown method, 200 for OPTIONS) with `Allow`, as @koa/router's allowedMethods() does.
 */
export function routeTable(routers: readonly RouteSource[]): RouteTable {
  const bySize = build(routers);
  const lookup = (method: string, path: string): Lookup => {
    const parts = path.split('/');
    // One trailing slash is allowed ('/a/b/' is '/a/b'), as @koa/router's non-strict matching does.
    const count = routedCount(parts);
    const allowed: string[] = [];
    const m = method.toUpperCase();
    for (const r of bySize.get(count) ?? []) {
      if (!matches(r, parts, count)) continue;
      if (r.methods.includes(m)) {
        const params: Record<string, string> = {};
        for (let i = 0, n = 0; i < count; i++) if (r.segments[i] === null) params[r.names[n++]] = decodeParam(parts[i + 1]);
        return { path: r.path, params, handler: r.handler };
      }
      for (const m of r.methods) if (!allowed.includes(m)) allowed.push(m);
    }
    return { allowed };
  };
  const middleware: Middleware = (ctx, next) => {
    const found = lookup(ctx.method, ctx.path);
    if ('handler' in found) {
      ctx.params = found.params;
      return found.handler(ctx, next);
    }
    return next().then(() => {
      if (ctx.status && ctx.status !== 404) return;
      const method = ctx.method.toUpperCase();
      const list = found.allowed;
      if (!IMPLEMENTED.has(method)) {
        ctx.status = 501;
        ctx.set('Allow', list.join(', '));
      } else if (method === 'OPTIONS' && list.length > 0) {
        ctx.status = 200;
        ctx.body = '';
        ctx.set('Allow', list.join(', '));
      } else if (list.length > 0 && !list.includes(method)) {
        ctx.status = 405;
        ctx.set('Allow', list.join(', '));
      }
    });
  };
  return Object.assign(middleware, { lookup });
}
