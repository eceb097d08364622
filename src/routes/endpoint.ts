// The request pipeline shared by every v3 handler: authenticate, validate path/query, authorize, read and validate the body.
import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
import type { Deps } from '../deps.js';
import { ApiError, ValidationError, invalid, type ValidationItem } from '../errors.js';
import type { ReadBody } from '../body/index.js';
import { authenticate, authorizeProject, type Actor, type LevelName } from '../domain/auth.js';
import { parse } from '../validation.js';
import type { RecordOf } from '../schemas/state.js';
import { JsonText } from './json-text.js';
import { authorityGuard, type AuthorityNeeded } from '../domain/write-guard.js';
import type { WriteScope } from '../storage/index.js';
import type { MockControl } from '../control/api.js';
import { addressed } from '../middleware/addressed.js';

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

/** A non-default reply: another status, or extra headers. */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
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

/**
 * The handler of one route, built once per server: each request is answered from the mock it addresses (its deps and
 * control surface come with the request), so a sandbox holds only its own state, never a copy of the handlers.
 */
export function endpoint<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined>(
  readBody: ReadBody,
  spec: EndpointSpec<P, Q, B>,
  handler: (req: Request<P, Q, B>) => unknown | Promise<unknown>,
): Middleware {
  return async (ctx) => {
    ctx.state.operation = spec.operation;
    const { deps, control } = addressed(ctx);
    const actor =
      spec.level === 'public'
        ? (undefined as unknown as Actor)
        : authenticate(
            deps.view,
            {
              authorization: ctx.get('authorization') || undefined,
              adminKey: ctx.headers['x-admin-key'] as string | undefined,
              adminKeyAccepted: !!spec.adminKey,
            },
            { mode: deps.config.auth, adminKey: deps.config.adminKey(), nowMs: deps.clock.nowMs() },
          );
    // Path and query problems come in one 422, path first, as FastAPI reports them.
    let problems: ValidationItem[] | undefined;
    let path: unknown;
    let query: unknown;
    if (spec.path) {
      try {
        path = parse(spec.path, ctx.params, 'path');
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        problems = err.items;
      }
    }
    if (spec.query) {
      try {
        query = parse(spec.query, lastValues(ctx.query), 'query');
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
        needed.project = { id, level: spec.level, refuseArchived: !spec.allowArchived && ctx.method !== 'GET' };
      }
      // Checked again inside each write the handler makes, on what that write reads (see authorityGuard).
      (ctx.state as WriteScope).guard = authorityGuard(needed);
    }
    let body: unknown;
    if (spec.body) {
      // No bytes (or JSON null) is "no body": a required body is missing, an optional one takes its default.
      const raw = await readBody(ctx);
      if ((raw === undefined || raw === null) && spec.bodyRequired) throw invalid(['body'], 'Field required', 'missing', null);
      body = parse(spec.body, raw ?? undefined, 'body');
    }
    if (spec.project && !spec.allowArchived && ctx.method !== 'GET' && project?.status === 'archived') {
      throw new ApiError('project_archived', { affected_resource: `project:${project.id}` });
    }
    // Commits made while the handler runs synchronously (every transaction callback is) belong to this request.
    const result = await deps.store.attributeTo(ctx.state, () => handler({ actor, path, query, body, project, ctx, deps, control } as Request<P, Q, B>));
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
}
