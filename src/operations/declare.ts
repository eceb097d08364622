// The shape of one operation's declaration: what /openapi.json documents (operation-spec.ts), who may call it, what the
// coverage report expects it to answer and change, and its handler. Everything else (route, document, coverage row,
// client types, test generators) is derived from it, so an operation cannot exist in one place and be missing in another.
import * as v from 'valibot';
import type { LevelName } from '../domain/index.js';
import type { EndpointSpec, ReadBody, Reply, Request } from '../pipeline/index.js';
import type { JsonText } from '../pipeline/index.js';
import type { Streamed } from '../json-stream.js';
import type { AnySchema, ErrorStatus, ObjectSchema, OperationSpec, SuccessResponse } from '../openapi/index.js';
import type { ClientMethod } from './client-method.js';

/**
 * A handler, built once per server (it may keep caches of immutable records, which every mock shares), then called per
 * request by the pipeline with the collaborators of the mock the request addresses (`req.deps`, `req.control`).
 * `readBody` reads this operation's body (within its limit).
 */
export type HandlerFactory<P, Q, B, A = unknown> = (readBody: ReadBody) => (req: Request<P, Q, B>) => Answered<A> | Promise<Answered<A>>;

/**
 * What a handler may answer for a success body of type A: the value, that value as ready JSON text, or a Reply carrying
 * it or a stream of its text; or a refusal it words itself (a Reply with a documented error status, such as a failed verification's 417).
 */
type Answered<A> = A | JsonText<A> | Reply<A> | Reply<Streamed<A>> | Reply<unknown, ErrorStatus>;

/** The type a declaration's successes let its handler answer: each named body's schema input, a text body's string. */
type SuccessBody<R> = R extends { body: infer Body }
  ? Body extends { schema: infer S extends AnySchema }
    ? v.InferInput<S>
    : Body extends { contentType: string }
      ? string
      : null | undefined
  : never;

type Params = ObjectSchema | undefined;

/** The parts of a declaration its schemas type: the handler's request and answer follow from them. */
interface Typed<P extends Params, Q extends Params, B extends AnySchema, R extends SuccessResponse> {
  pathParams?: P;
  query?: Q;
  /** The request body as documented; an optional body reads as `{}` when absent. */
  body?: { schema: { name: string; schema: B }; required: boolean };
  /** The answers on success: the handler's answer is checked against their schemas at compile time. */
  success: R[];
  /** A literal it answers is written `as const` (`true as const`): a literal checked against a type still being inferred widens. */
  handler: HandlerFactory<P, Q, B, SuccessBody<R>>;
}

/** The rest of a declaration: what /openapi.json says of it, who may call it, its coverage yardstick and client method. */
interface Described extends Omit<OperationSpec, 'pathParams' | 'query' | 'body' | 'success'> {
  /** The authority the caller needs: 'public' operations check their own credential (the grant, a webhook secret, /_mock's guard). */
  level: LevelName | 'public';
  /** Load `project_id`, check visibility and authority. */
  project?: boolean;
  /** Writes to an archived project are refused unless the operation allows them (a plan writes nothing; delete repeats). */
  allowArchived?: boolean;
  /** The handler reads (and verifies) the body itself, after its credential checks out: the pipeline leaves it unread. */
  ownBody?: boolean;
  /** The handler validates the body (the same check as in process, so the same 422 items): the pipeline reads it as it is. */
  rawBody?: boolean;
  /** State documents, fixtures and bundles outgrow the v3 body limit: up to CONTROL_BODY_LIMIT. */
  largeBody?: boolean;
  /** The reason codes it can answer, and the transitions its writes can make (`entity: from -> to`): the coverage yardstick. */
  reasonCodes?: string[];
  transitions?: string[];
  /** The typed client's method(s) for it: every operation has one. */
  client: ClientMethod | ClientMethod[];
}

export type Operation<
  P extends Params = Params,
  Q extends Params = Params,
  B extends AnySchema = AnySchema,
  R extends SuccessResponse = SuccessResponse,
> = Described & Typed<P, Q, B, R>;

/** A v3 operation: numbered as docs/api.md numbers it, and a row of the coverage report. */
export type V3Operation = Operation & { endpoint: number; reasonCodes: string[] };

/** One v3 operation, declared with its schemas' types flowing into its handler. */
export const declare = <
  P extends Params = undefined,
  Q extends Params = undefined,
  B extends AnySchema = AnySchema,
  R extends SuccessResponse = SuccessResponse,
>(
  op: Operation<P, Q, B, R> & { endpoint: number; reasonCodes: string[] },
): V3Operation => op as unknown as V3Operation;

/** State documents and fixtures outgrow the v3 body limit; the control surface accepts up to 64 MiB of them. */
export const CONTROL_BODY_LIMIT = 64 * 1024 * 1024;

/** What a control route can refuse: 404 for an unknown project or run, 409 for a state conflict, 413 body size, 422 validation. */
const READ: ErrorStatus[] = [404, 422];
const WRITE: ErrorStatus[] = [404, 409, 413, 422];
/** Every /_mock path passes the control guard first: 401 control token, 403 cross-site Origin, 415 non-JSON body, 421 Host. */
const GUARD: ErrorStatus[] = [401, 403, 415, 421];

/** A control declaration: its handler's answer is held to its success schema as a v3 handler's is. */
type ControlInput<P extends Params, Q extends Params, B extends AnySchema, R extends SuccessResponse> = Omit<
  Described,
  'tag' | 'security' | 'level' | 'errors'
> &
  Typed<P, Q, B, R> & {
    errors?: ErrorStatus[];
    /** Answered without the control token (the guard's token-free reads): documented with no credential and no 401. */
    tokenFree?: true;
  };

/**
 * One /_mock operation (docs/control-surface.md): tagged `control`, the control token its credential (required only when
 * the mock runs with one; build.ts drops it otherwise), the guard's refusals and then its own (by default 404/422 for
 * a read, 404/409/413/422 for a write). Every control operation names its answer's schema: the typed client and the
 * tests' response check read it.
 */
export const declareControl = <
  P extends Params = undefined,
  Q extends Params = undefined,
  B extends AnySchema = AnySchema,
  R extends SuccessResponse = SuccessResponse,
>({
  errors,
  tokenFree,
  ...op
}: ControlInput<P, Q, B, R>): Operation =>
  ({
    ...op,
    tag: 'control',
    security: tokenFree ? [] : ['controlToken'],
    level: 'public',
    errors: [...GUARD.filter((s) => !tokenFree || s !== 401), ...(errors ?? (op.method === 'get' ? READ : WRITE))],
  }) as unknown as Operation;

/** The pipeline's options for an operation: its name, authority, schemas (an optional body defaults to a fresh `{}`). */
export function endpointSpec(op: Operation): EndpointSpec<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined> {
  const declared = op.body && !op.ownBody ? op.body : undefined;
  const schema = declared && (op.rawBody ? v.unknown() : declared.required ? declared.schema.schema : v.optional(declared.schema.schema, () => ({})));
  return {
    operation: op.operationId,
    level: op.level,
    ...(op.security.includes('adminKey') ? { adminKey: true } : {}),
    ...(op.project ? { project: true } : {}),
    ...(op.allowArchived ? { allowArchived: true } : {}),
    ...(op.pathParams ? { path: op.pathParams } : {}),
    ...(op.query ? { query: op.query } : {}),
    ...(schema ? { body: schema, bodyRequired: declared!.required } : {}),
  };
}

/** The route pattern of an OpenAPI path template: `{run_id}` -> `:run_id`. */
export const routePattern = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The OpenAPI part of a declaration (what build.ts reads). */
export function openApiSpec(op: Operation): OperationSpec {
  const {
    level: _l,
    project: _p,
    allowArchived: _a,
    ownBody: _o,
    rawBody: _b,
    largeBody: _g,
    reasonCodes: _r,
    transitions: _t,
    client: _c,
    handler: _h,
    ...spec
  } = op;
  return spec as OperationSpec;
}

/** Authentication failures and an unknown (or invisible) project: every management operation can answer them. */
export const AUTH = ['authentication_required', 'token_expired', 'token_invalid', 'insufficient_authority', 'project_not_found'];
/** ...and a wrong admin key, where the admin key is accepted. */
export const ADMIN = [...AUTH, 'admin_key_invalid'];
