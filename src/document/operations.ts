// The operation catalog behind /openapi.json: one row per operation, naming the valibot schemas the routes use.
// build.ts turns this table into OpenAPI 3.1; nothing here is written by hand in JSON Schema. The rows are the OpenAPI
// part of each operation's declaration (src/operations).
import { CONTROL_OPERATION_SPECS, V3_OPERATION_SPECS } from '../operations/index.js';
export type { OperationSpec } from '../openapi/index.js';

/** Every /_mock operation. */
export const CONTROL_OPERATIONS = CONTROL_OPERATION_SPECS;

/** The 20 v3 operations, in the order docs/api.md numbers them (endpoint 1 .. 20). */
export const V3_OPERATIONS = V3_OPERATION_SPECS;

/**
 * Served but not described, as FastAPI serves its own /openapi.json and /docs outside the schema
 * (`include_in_schema=False`): this document, its Swagger UI page, and the inspector page (HTML for people, not an API).
 */
export const UNDESCRIBED_PATHS = ['/openapi.json', '/docs', '/docs/{asset}', '/_mock/ui', '/_mock/ui/{asset}'] as const;
