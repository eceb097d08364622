// The server's one Koa app: the middleware chain and the route table are built once, and each request is answered from
// the mock it addresses (the default mock, or a sandbox), so a sandbox costs its own state and nothing of the pipeline.
import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import { koaClass } from './koa-class.js';
import { appErrorListener, errorMiddleware } from './errors.js';
import { CONTROL_ROUTES, V3_ROUTES, controlMetricsRoutes } from './routes/index.js';
import { routeTable, type RouteTable } from './routes/index.js';
import { address, addressed, type AddressedMock } from './pipeline/index.js';
import type { ShadowRecord } from './shadow/index.js';
import { journalMiddleware } from './middleware/index.js';
import { coverageMiddleware } from './middleware/index.js';
import { faultMiddleware } from './middleware/index.js';
import { controlGuard, hostCheck } from './middleware/index.js';
import { sharedStorage } from './middleware/index.js';
import type { Sandboxes } from './sandboxes/index.js';
import type { Mock, ServerParts } from './mock.js';
import { fastListener } from './fast-path.js';
import { holdTickShape } from './tick-shape.js';

/** The mock's shadow record with what the middleware needs of the mock itself (its journal, clock and auth mode), built once per mock. */
const records = new WeakMap<AddressedMock, ShadowRecord | null>();
function shadowOf(mock: AddressedMock): ShadowRecord | null {
  let r = records.get(mock);
  if (r === undefined) {
    const { shadow, control, deps } = mock;
    r = shadow && { ...shadow, journal: control.journal, nowIso: () => deps.clock.nowIso(), authOff: deps.config.auth === 'off' };
    records.set(mock, r);
  }
  return r;
}

/**
 * The server's Koa app, and the request listener that serves it (the fast path first, then the app's whole chain). The
 * app is built at its first use (`app()`: a request the fast path does not take, or `mock.app`), once.
 */
export interface ServerApp {
  app(): Koa;
  listener: RequestListener;
}

export function serverApp(root: Mock, sandboxes: Sandboxes | null, server: ServerParts): ServerApp {
  const { options } = server;
  // A server between bursts of load must not lose the shape of Node's ticks (see tick-shape.ts).
  holdTickShape();
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const control = options.control ?? true;
  // Every module's routes in one flat table (looked up by segments, not by walking each router's layers).
  const modules = control ? [...V3_ROUTES, ...CONTROL_ROUTES, controlMetricsRoutes(server.metrics)] : V3_ROUTES;
  const table = routeTable(modules.map((routes) => routes(server.readBody, bodyLimit)));
  // The chain is made here, with the options it checks; only the Koa app that runs it waits for its first use.
  const chain = middlewareChain(root, sandboxes, server, table);
  const onError = appErrorListener(options.log ?? ((line) => console.error(line)), options.onError);
  let built: { app: Koa; full: RequestListener } | undefined;
  const build = () => {
    const app = new (koaClass())();
    app.on('error', onError);
    for (const middleware of chain) app.use(middleware);
    return { app, full: app.callback() };
  };
  const app = () => (built ??= build()).app;
  const full: RequestListener = (req, res) => (built ??= build()).full(req, res);
  // Shadow mode compares every v3 answer: the fast path hands its answers to the same queue, after writing them.
  const compare = server.shadow?.answered(server.report);
  const shadow =
    compare &&
    ((mock: AddressedMock, call: Parameters<typeof compare>[1]) => {
      const record = shadowOf(mock);
      if (record) compare(record, call);
    });
  const listener = fastListener({ app, root, table, sandboxes: sandboxes?.local, report: server.report, shadow, faults: server.faultTally }, full);
  return { app, listener };
}

/** The whole middleware chain over `table`, in the order the app runs it. */
function middlewareChain(root: Mock, sandboxes: Sandboxes | null, server: ServerParts, table: RouteTable): Koa.Middleware[] {
  const { options } = server;
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const control = options.control ?? true;
  const chain: Koa.Middleware[] = [];
  // A request whose Host is ambiguous is refused before anything reads Host (the sandbox host form, the control guard).
  chain.push(hostCheck());
  // Every request is the default mock's unless it names a sandbox: the selector then readdresses it (prefix taken off)
  // before anything else sees it.
  // One middleware for both (a layer less on every request's way).
  const select = sandboxes?.select;
  chain.push(
    select
      ? (ctx, next) => {
          address(ctx, root);
          return select(ctx, next);
        }
      : (ctx, next) => {
          address(ctx, root);
          return next();
        },
  );
  // Shadow mode outside the journal: it sends on the answer the client got, and adds differences to the entry it left.
  if (server.shadow) chain.push(server.shadow.middleware((ctx) => shadowOf(addressed(ctx)), server.report));
  // Journal outermost (sees the final answer, faults included), then coverage (after errors are rendered),
  // then faults (outside the error renderer, so an injected 404 stays as injected).
  chain.push(journalMiddleware(), coverageMiddleware(), faultMiddleware({ bodyLimit }), errorMiddleware(options.onError));
  // Every /_mock path, whichever module serves it, passes the admin-API checks first.
  if (control) chain.push(controlGuard({ allowedHosts: options.allowedHosts, controlToken: options.controlToken }));
  // Shared storage: a request sees every write acknowledged (by any instance) before it began.
  chain.push(sharedStorage(table));
  return chain;
}
