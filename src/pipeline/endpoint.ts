// The request pipeline shared by every v3 handler: authenticate, validate path/query, authorize, read and validate the body.
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
import type { Deps } from '../deps.js';
import { ApiError, ValidationError, invalid, type ValidationItem } from '../errors.js';
import type { ReadBody } from '../body/index.js';
import { authenticate, authorizeProject, type Actor, type LevelName } from '../domain/index.js';
import { parse } from '../validation.js';
import type { RecordOf } from '../schemas/index.js';
import { JsonText } from './json-text.js';
import { parseMemo } from './parse-memo.js';
import { authorityGuard, type AuthorityNeeded } from '../domain/index.js';
import type { WriteScope } from '../storage/index.js';
import type { MockControl } from '../mock-control/index.js';
import { addressed, type AddressedMock } from './addressed.js';

type AnySchema = v.GenericSchema<unknown, unknown>;
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

export interface EndpointSpec<P, Q, B> {
  /** Operation name used by the journal and the coverage report. */
  operation: string;
  /** 'public' endpoints authenticate themselves (token, webhooks). */
  level: LevelName | 'public';
  adminKey?: boolean;
  path?: P;
  query?: Q;
  body?: B;
  /** An absent or empty body is a 422 (`missing` at loc ["body"]). */
  bodyRequired?: boolean;
  /** Load `project_id` and check visibility and authority. */
  project?: boolean;
  /** Writes to archived projects are refused unless the handler decides (delete project). */
  allowArchived?: boolean;
}

export interface Request<P, Q, B> {
  actor: Actor;
  path: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  project: RecordOf<'projects'>;
  ctx: Context;
  /** The collaborators of the mock the request addresses (the default mock or a sandbox). */
  deps: Deps;
  /** That mock's control surface. */
  control: MockControl;
}

/** A non-default reply: another status, or extra headers. `S` is its status as written (a refusal's is checked apart from a success's). */
export class Reply<T = unknown, S extends number = number> {
  constructor(
    readonly status: S,
    readonly body: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

// Bodies are read (src/body) only when the pipeline gets there, so auth and path errors come first.
export { bodyReader, type ReadBody } from '../body/index.js';

/** The query as FastAPI reads a scalar parameter: a repeated key gives its last value. */
function lastValues(query: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  let out: Record<string, string | undefined> | undefined;
  for (const key in query) {
    const value = query[key];
    if (Array.isArray(value)) (out ??= { ...(query as Record<string, string>) })[key] = value.at(-1);
  }
  return out ?? (query as Record<string, string | undefined>);
}

const NO_QUERY: Call['query'] = Object.freeze({});

/** `schema`'s parse of a flat input, remembered for GET requests only (see endpoint). */
function remembered(schema: AnySchema, part: 'path' | 'query'): (input: Record<string, string | undefined>, method: string) => unknown {
  const memo = parseMemo(schema, part);
  return (input, method) => (method === 'GET' ? memo(input) : parse(schema, input, part));
}

/** A handler's request: its Koa context is read only when the handler asks for it (the fast path then makes one). */
class PipelineRequest {
  constructor(
    readonly actor: Actor,
    readonly path: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly project: RecordOf<'projects'>,
    private readonly call: Call,
    readonly deps: Deps,
    readonly control: MockControl,
  ) {}
  get ctx(): Context {
    return this.call.ctx;
  }
}

/** What the pipeline reads of a request: a Koa context's parts, or what the fast path (src/fast-path.ts) read itself. */
export interface Call {
  method: string;
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  /** Where the request's scope lives (its write guard, the commits attributed to it). */
  state: Record<string, unknown>;
  /** The mock the request addresses. */
  mock: AddressedMock;
  /** The Koa context (the fast path makes one only when a handler reads it). */
  readonly ctx: Context;
}

/** A route's pipeline without Koa: what a body-less v3 read needs, so the fast path can answer it from the same code. */
interface FastEndpoint {
  readonly operation: string;
  run(call: Call): unknown;
}

/** A route handler that also offers its pipeline to the fast path (body-less, authenticated operations only). */
export type EndpointMiddleware = Middleware & { fast?: FastEndpoint };

/**
 * The handler of one route, built once per server: each request is answered from the mock it addresses (its deps and
 * control surface come with the request), so a sandbox holds only its own state, never a copy of the handlers.
 */
export function endpoint<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined>(
  readBody: ReadBody,
  spec: EndpointSpec<P, Q, B>,
  handler: (req: Request<P, Q, B>) => unknown | Promise<unknown>,
): EndpointMiddleware {
  // A read's path and query are remembered: clients repeat reads (a poll of a run). A write names what it changes once
  // (each cancel its own run), so remembering its input would only cost: it is parsed as it comes.
  const parsePath = spec.path && remembered(spec.path, 'path');
  const parseQuery = spec.query && remembered(spec.query, 'query');
  const prepared = (call: Call): { actor: Actor; path: unknown; query: unknown; project: RecordOf<'projects'> } => {
    const { deps } = call.mock;
    const adminKey = call.headers['x-admin-key'] as string | undefined;
    const actor =
      spec.level === 'public'
        ? (undefined as unknown as Actor)
        : authenticate(
            deps.view,
            { authorization: (call.headers.authorization as string | undefined) || undefined, adminKey, adminKeyAccepted: !!spec.adminKey },
            // The mock's admin key is read only for a request that presents one where it is accepted (the only use).
            { mode: deps.config.auth, adminKey: adminKey !== undefined && spec.adminKey ? deps.config.adminKey() : null, nowMs: deps.clock.nowMs() },
          );
    // Path and query problems come in one 422, path first, as FastAPI reports them.
    let problems: ValidationItem[] | undefined;
    let path: unknown;
    let query: unknown;
    if (parsePath) {
      try {
        path = parsePath(call.params, call.method);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        problems = err.items;
      }
    }
    if (parseQuery) {
      try {
        query = parseQuery(lastValues(call.query), call.method);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        problems = [...(problems ?? []), ...err.items];
      }
    }
    if (problems) throw new ValidationError(problems);
    let project = undefined as unknown as RecordOf<'projects'>;
    if (spec.level !== 'public') {
      const needed: AuthorityNeeded = { actor };
      if (spec.project) {
        const id = (path as { project_id: string }).project_id;
        project = authorizeProject(actor, deps.view.get('projects', id), spec.level);
        needed.project = { id, level: spec.level, refuseArchived: !spec.allowArchived && call.method !== 'GET' };
      }
      // Checked again inside each write the handler makes, on what that write reads (see authorityGuard).
      (call.state as WriteScope).guard = authorityGuard(needed);
    }
    return { actor, path, query, project };
  };
  // Commits made while the handler runs synchronously (every transaction callback is) belong to this request.
  const answer = (call: Call, p: ReturnType<typeof prepared>, body: unknown) => {
    const { deps, control } = call.mock;
    const req = new PipelineRequest(p.actor, p.path, p.query, body, p.project, call, deps, control) as unknown as Request<P, Q, B>;
    return deps.store.attributeTo(call.state, () => handler(req));
  };
  const middleware: EndpointMiddleware = async (ctx) => {
    ctx.state.operation = spec.operation;
    // Koa parses the query string on first read: only for an operation that has a query.
    const query = parseQuery ? ctx.query : NO_QUERY;
    const call: Call = { method: ctx.method, headers: ctx.headers, params: ctx.params, query, state: ctx.state, mock: addressed(ctx), ctx };
    const p = prepared(call);
    let body: unknown;
    if (spec.body) {
      // No bytes (or JSON null) is "no body": a required body is missing, an optional one takes its default.
      const raw = await readBody(ctx);
      if ((raw === undefined || raw === null) && spec.bodyRequired) throw invalid(['body'], 'Field required', 'missing', null);
      body = parse(spec.body, raw ?? undefined, 'body');
    }
    if (spec.project && !spec.allowArchived && ctx.method !== 'GET' && p.project?.status === 'archived') {
      throw new ApiError('project_archived', { affected_resource: `project:${p.project.id}` });
    }
    const result = await answer(call, p, body);
    if (result instanceof JsonText) {
      ctx.status = 200;
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.body = result.text;
    } else if (result instanceof Reply) {
      ctx.status = result.status;
      for (const [k, val] of Object.entries(result.headers)) ctx.set(k, val);
      ctx.body = result.body;
    } else {
      ctx.status = 200;
      ctx.body = result;
    }
  };
  // A body-less authenticated operation offers its pipeline as is (a GET never meets the archived-project refusal).
  if (!spec.body && spec.level !== 'public') middleware.fast = { operation: spec.operation, run: (call) => answer(call, prepared(call), undefined) };
  return middleware;
}
