// The route list a route module builds: each route's methods, path and handlers, in order. routes/table.ts compiles
// the paths once per server; nothing here builds a regular expression.
import type { Middleware } from 'koa';

/** One declared route: its path pattern, its methods and its handlers, the fields routes/table.ts compiles. */
export interface RouteLayer {
  readonly path: string;
  readonly methods: readonly string[];
  readonly stack: readonly Middleware[];
}

/** The subset of @koa/router's API the route modules use: get, post, put, patch, delete. */
export class Router {
  readonly stack: RouteLayer[] = [];

  private add(methods: string[], path: string, handlers: Middleware[]): this {
    this.stack.push({ path, methods, stack: handlers });
    return this;
  }
  /** GET also answers HEAD, as @koa/router's get does. */
  get(path: string, ...handlers: Middleware[]): this {
    return this.add(['HEAD', 'GET'], path, handlers);
  }
  post(path: string, ...handlers: Middleware[]): this {
    return this.add(['POST'], path, handlers);
  }
  put(path: string, ...handlers: Middleware[]): this {
    return this.add(['PUT'], path, handlers);
  }
  patch(path: string, ...handlers: Middleware[]): this {
    return this.add(['PATCH'], path, handlers);
  }
  delete(path: string, ...handlers: Middleware[]): this {
    return this.add(['DELETE'], path, handlers);
  }
}
