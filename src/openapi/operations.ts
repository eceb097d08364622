// The operation catalog behind /openapi.json: one row per operation, naming the valibot schemas the routes use.
// build.ts turns this table into OpenAPI 3.1; nothing here is written by hand in JSON Schema. The rows live in
// v3-public.ts, v3-projects.ts, v3-runtime.ts (the 20 v3 endpoints) and control-operations.ts (/_mock).
import { V3_PUBLIC_OPERATIONS } from './v3-public.js';
import { V3_PROJECT_OPERATIONS } from './v3-projects.js';
import { V3_RUNTIME_OPERATIONS } from './v3-runtime.js';

import { CONTROL_OPERATIONS as BASE_CONTROL_OPERATIONS } from './control-operations.js';
import { REPRODUCE_OPERATIONS } from './control-reproduce.js';
export type { ErrorStatus, HeaderParam, Named, OperationSpec, SecurityScheme, SuccessResponse } from './operation-spec.js';

/** Every /_mock operation. */
export const CONTROL_OPERATIONS = [...BASE_CONTROL_OPERATIONS, ...REPRODUCE_OPERATIONS];

/** The 20 operations of interface-v3.md, in its order (endpoint 1 .. 20). */
export const V3_OPERATIONS = [...V3_PUBLIC_OPERATIONS, ...V3_PROJECT_OPERATIONS, ...V3_RUNTIME_OPERATIONS].sort((a, b) => a.endpoint! - b.endpoint!);

/**
 * Served but not described, as FastAPI serves its own /openapi.json and /docs outside the schema
 * (`include_in_schema=False`): this document, its Swagger UI page, and the inspector page (HTML for people, not an API).
 */
export const UNDESCRIBED_PATHS = ['/openapi.json', '/docs', '/docs/{asset}', '/_mock/ui', '/_mock/ui/{asset}'] as const;
