// The shape of one operation's declaration: what /openapi.json documents (operation-spec.ts), who may call it, what the
// coverage report expects it to answer and change, and its handler. Everything else (route, document, coverage row,
// client types, test generators) is derived from it, so an operation cannot exist in one place and be missing in another.
import * as v from 'valibot';
import type { LevelName } from '../domain/auth.js';
import type { EndpointSpec, ReadBody, Request } from '../routes/endpoint.js';
import type { AnySchema, ObjectSchema, OperationSpec } from '../openapi/operation-spec.js';

/**
 * A handler, built once per server (it may keep caches of immutable records, which every mock shares), then called per
 * request by the pipeline with the collaborators of the mock the request addresses (`req.deps`).
 */
export type HandlerFactory<P, Q, B> = (readBody: ReadBody) => (req: Request<P, Q, B>) => unknown;

export interface Operation<
  P extends ObjectSchema | undefined = ObjectSchema | undefined,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends AnySchema = AnySchema,
> extends Omit<OperationSpec, 'pathParams' | 'query' | 'body'> {
  /** The endpoint's number in interface-v3.md; the catalog is listed in this order. */
  endpoint: number;
  pathParams?: P;
  query?: Q;
  /** The request body as documented; an optional body reads as `{}` when absent. */
  body?: { schema: { name: string; schema: B }; required: boolean };
  /** The authority the caller needs: 'public' operations check their own credential (the grant, a webhook secret). */
  level: LevelName | 'public';
  /** Load `project_id`, check visibility and authority. */
  project?: boolean;
  /** Writes to an archived project are refused unless the operation allows them (a plan writes nothing; delete repeats). */
  allowArchived?: boolean;
  /** The handler reads (and verifies) the body itself, after its credential checks out: the pipeline leaves it unread. */
  ownBody?: boolean;
  /** The reason codes it can answer, and the transitions its writes can make (`entity: from -> to`): the coverage yardstick. */
  reasonCodes: string[];
  transitions?: string[];
  handler: HandlerFactory<P, Q, B>;
}

/** One v3 operation, declared with its schemas' types flowing into its handler. */
export const declare = <P extends ObjectSchema | undefined = undefined, Q extends ObjectSchema | undefined = undefined, B extends AnySchema = AnySchema>(
  op: Operation<P, Q, B>,
): Operation => op as unknown as Operation;

/** The pipeline's options for an operation: its name, authority, schemas (an optional body defaults to `{}`). */
export function endpointSpec(op: Operation): EndpointSpec<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined> {
  const body = op.body && !op.ownBody ? (op.body.required ? op.body.schema.schema : v.optional(op.body.schema.schema, {})) : undefined;
  return {
    operation: op.operationId,
    level: op.level,
    ...(op.security.includes('adminKey') ? { adminKey: true } : {}),
    ...(op.project ? { project: true } : {}),
    ...(op.allowArchived ? { allowArchived: true } : {}),
    ...(op.pathParams ? { path: op.pathParams } : {}),
    ...(op.query ? { query: op.query } : {}),
    ...(body ? { body, bodyRequired: op.body!.required } : {}),
  };
}

/** The route pattern of an OpenAPI path template: `{run_id}` -> `:run_id`. */
export const routePattern = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The OpenAPI part of a declaration (what build.ts reads). */
export function openApiSpec(op: Operation): OperationSpec {
  const { level: _l, project: _p, allowArchived: _a, ownBody: _o, reasonCodes: _r, transitions: _t, handler: _h, ...spec } = op;
  return spec as OperationSpec;
}

/** Authentication failures and an unknown (or invisible) project: every management operation can answer them. */
export const AUTH = ['authentication_required', 'token_expired', 'token_invalid', 'insufficient_authority', 'project_not_found'];
/** ...and a wrong admin key, where the admin key is accepted. */
export const ADMIN = [...AUTH, 'admin_key_invalid'];
