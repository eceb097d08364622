// The shape of one row of the operation catalog (operations.ts), and the small helpers the catalog files share.
import type * as v from 'valibot';

export type AnySchema = v.GenericSchema<unknown, unknown>;
export type ObjectSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

/** A schema shown under its own name in components.schemas. */
export interface Named {
  name: string;
  schema: AnySchema;
}
/** Generic, so that a declaration's handler sees the schema's own output type. */
export const named = <S extends AnySchema>(name: string, schema: S): Named & { schema: S } => ({ name, schema });

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 417 | 421 | 422 | 429;

/**
 * The credentials of the service, as OpenAPI security schemes (build.ts describes each): `bearer` is
 * `Authorization: Bearer`, the others are `apiKey` headers.
 */
export type SecurityScheme = 'bearer' | 'adminKey' | 'chatSecret' | 'brokerSignature' | 'controlToken';

interface HeaderParam {
  name: string;
  description: string;
  required?: boolean;
}

export interface SuccessResponse<S extends AnySchema = AnySchema> {
  status: number | '2XX';
  description: string;
  /** A named JSON body (its schema's type is what the handler must answer); `null` = no body; `{ contentType }` for non-JSON answers. */
  body: (Named & { schema: S }) | null | { contentType: string };
  headers?: Record<string, { description: string; required: boolean }>;
}

export interface OperationSpec {
  operationId: string;
  /** The endpoint's number in docs/api.md (v3 operations only); the catalog is listed in this order. */
  endpoint?: number;
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  /** The accepted credentials, each one an alternative; empty = public (no credential). */
  security: SecurityScheme[];
  pathParams?: ObjectSchema;
  query?: ObjectSchema;
  headers?: HeaderParam[];
  body?: { schema: Named; required: boolean };
  success: SuccessResponse[];
  errors: ErrorStatus[];
}

export const json = <S extends AnySchema>(
  status: number,
  name: string,
  schema: S,
  description: string,
): SuccessResponse<S> & { body: Named & { schema: S } } => ({
  status,
  description,
  body: named(name, schema),
});

/** Management endpoints: 401 authentication, 403 authority, 404 missing (or not visible), 422 validation. */
export const READ_ERRORS: ErrorStatus[] = [401, 403, 404, 422];
/** Management writes add 409 invariants and 413 body limit. */
export const WRITE_ERRORS: ErrorStatus[] = [401, 403, 404, 409, 413, 422];

/** docs/api.md#authentication: a bearer token everywhere, or the admin key on endpoints 2, 3, 13, 18 and 20. */
export const BEARER: SecurityScheme[] = ['bearer'];
export const BEARER_OR_ADMIN_KEY: SecurityScheme[] = ['bearer', 'adminKey'];
