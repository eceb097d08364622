// The request pipeline shared by every v3 handler: authenticate, validate path/query, authorize, read and validate the body.
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type * as v from 'valibot';
import type { Deps } from '../deps.js';
import { ApiError, fromBodyParserError, invalid } from '../errors.js';
import { authenticate, authorizeProject, type Actor, type LevelName } from '../domain/auth.js';
import { parse } from '../validation.js';
import type { RecordOf } from '../schemas/state.js';

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
}

/** A non-default reply: another status, or extra headers. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** Reads the JSON body only when the pipeline gets there, so auth and path errors come first. */
export function bodyReader(limitBytes: number) {
  // koa-body validates its options when created: do it on the first body, not at start-up (bench g).
  let parser: ReturnType<typeof koaBody> | undefined;
  const makeParser = () => koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limitBytes,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
    onError: (err, ctx) => {
      ctx.state.bodyError = err;
    },
  });
  return async (ctx: Context): Promise<unknown> => {
    parser ??= makeParser();
    await parser(ctx, async () => {});
    if (ctx.state.bodyError) throw fromBodyParserError(ctx.state.bodyError) ?? ctx.state.bodyError;
    return ctx.request.body;
  };
}

export type ReadBody = ReturnType<typeof bodyReader>;

export function hasBody(ctx: Context): boolean {
  const len = ctx.get('content-length');
  return (len !== '' && len !== '0') || ctx.get('transfer-encoding') !== '';
}

export function endpoint<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined>(
  deps: Deps,
  readBody: ReadBody,
  spec: EndpointSpec<P, Q, B>,
  handler: (req: Request<P, Q, B>) => unknown | Promise<unknown>,
): Middleware {
  return async (ctx) => {
    ctx.state.operation = spec.operation;
    // Shared storage: first apply what other instances stored, so a client reads its own writes made through them.
    if (deps.store.shared) await deps.store.sync();
    const actor =
      spec.level === 'public'
        ? (undefined as unknown as Actor)
        : authenticate(
            deps.store,
            { authorization: ctx.get('authorization') || undefined, adminKey: ctx.headers['x-admin-key'] as string | undefined, adminKeyAccepted: !!spec.adminKey },
            { mode: deps.config.auth, adminKey: deps.config.adminKey(), nowMs: deps.clock.nowMs() },
          );
    const path = spec.path ? parse(spec.path, ctx.params, 'path') : undefined;
    const query = spec.query ? parse(spec.query, ctx.query, 'query') : undefined;
    let project = undefined as unknown as RecordOf<'projects'>;
    if (spec.project && spec.level !== 'public') {
      project = authorizeProject(actor, deps.store.get('projects', (path as { project_id: string }).project_id), spec.level);
    }
    let body: unknown;
    if (spec.body) {
      if (spec.bodyRequired && !hasBody(ctx)) throw invalid(['body'], 'Field required', 'missing', null);
      const raw = await readBody(ctx);
      // valibot's object schemas accept arrays; a JSON body must be an object.
      if (Array.isArray(raw)) throw invalid(['body'], 'Input should be a valid dictionary or object to extract fields from', 'model_attributes_type', raw);
      body = parse(spec.body, raw, 'body');
    }
    if (spec.project && !spec.allowArchived && ctx.method !== 'GET' && project?.status === 'archived') {
      throw new ApiError('project_archived', { affected_resource: `project:${project.id}` });
    }
    // Commits made while the handler runs synchronously (every transaction callback is) belong to this request.
    const result = await deps.store.attributeTo(ctx.state, () => handler({ actor, path, query, body, project, ctx } as Request<P, Q, B>));
    if (result instanceof Reply) {
      ctx.status = result.status;
      for (const [k, val] of Object.entries(result.headers)) ctx.set(k, val);
      ctx.body = result.body;
    } else {
      ctx.status = 200;
      ctx.body = result;
    }
  };
}
