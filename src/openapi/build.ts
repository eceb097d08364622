// Builds the OpenAPI 3.1 document from the operation catalog, converting every valibot schema with
// @valibot/to-json-schema. Built once per process and control setting (cached), served by routes/docs.ts.
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { REASON_CODES } from '../reason-codes.js';
import { ApprovalResponseSchema } from '../schemas/approvals.js';
import { BundleSchema, MutationSchema, SemanticChangeSchema, DesiredStateHeadSchema } from '../schemas/desired-state.js';
import { JobResponseSchema } from '../schemas/jobs.js';
import { ReleaseResponseSchema } from '../schemas/releases.js';
import { RunStepSchema, RunTimingSchema } from '../schemas/runs.js';
import { UserResponseSchema } from '../schemas/users.js';
import { CONTROL_OPERATIONS, V3_OPERATIONS, type ErrorStatus, type OperationSpec, type SecurityScheme } from './operations.js';
import { ManagementErrorSchema, ValidationErrorSchema } from './schemas.js';

type AnySchema = v.GenericSchema<unknown, unknown>;
type ObjectSchema = v.ObjectSchema<v.ObjectEntries, undefined>;
type Json = Record<string, unknown>;

export const V3_TAGS = ['auth', 'connections', 'releases', 'runs', 'projects', 'users', 'desired-state', 'approvals', 'jobs', 'webhooks'];

/** Nested schemas that get their own component (and a $ref wherever they occur). */
const SHARED_DEFS: Record<string, AnySchema> = {
  SemanticChangeV3: SemanticChangeSchema,
  DesiredStateHeadV3: DesiredStateHeadSchema,
  MutationV3: MutationSchema,
  BundleV3: BundleSchema,
  RunStepResponseV3: RunStepSchema,
  RunTimingV3: RunTimingSchema,
  ApprovalResponseV3: ApprovalResponseSchema,
  UserResponseV3: UserResponseSchema,
  JobResponseV3: JobResponseSchema,
  ReleaseResponseV3: ReleaseResponseSchema,
};

/** JSON Schema patterns have no flags: spell a case-insensitive regex out with both cases of every letter. */
export function caseFold(source: string): string {
  const swap = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
  const isLetter = (c: string) => c.toLowerCase() !== c.toUpperCase();
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      out += c + (source[++i] ?? '');
    } else if (c === '[') {
      let body = '';
      let j = i + 1;
      if (source[j] === '^') body += source[j++];
      const start = body.length;
      for (; j < source.length && source[j] !== ']'; j++) body += source[j] === '\\' ? source[j] + source[++j] : source[j];
      let extra = '';
      for (let k = start; k < body.length; k++) {
        if (body[k] === '\\') k++;
        else extra += isLetter(body[k]) ? swap(body[k]) : body[k];
      }
      out += `[${body}${/[A-Za-z]/.test(extra) ? extra : ''}]`;
      i = j;
    } else {
      out += isLetter(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
    }
  }
  return out;
}

const refTo = (name: string) => `#/components/schemas/${name}`;

function conversionConfig(defs: Record<string, AnySchema>): ConversionConfig {
  return {
    target: 'draft-2020-12',
    errorMode: 'throw',
    definitions: defs,
    overrideRef: ({ referenceId }) => refTo(referenceId),
    // The pydantic field schemas (src/pydantic) carry their JSON Schema; a free-form object is an explicitly open one:
    // a bare {type: object} reads as "no keys" to generators such as openapi-typescript.
    overrideSchema: ({ valibotSchema, jsonSchema }) => {
      const own = (valibotSchema as { jsonSchema?: JsonSchema }).jsonSchema;
      if (own) return { ...own };
      // A looseObject keeps the keys it does not name: open (to-json-schema would leave it for closeObjects to close).
      if (valibotSchema.type === 'loose_object') return { ...jsonSchema, additionalProperties: true };
      return undefined;
    },
    // JSON has no NaN or Infinity: `finite` adds nothing to a JSON number.
    overrideAction: ({ valibotAction, jsonSchema }) => {
      if (valibotAction.type === 'finite') return jsonSchema;
      const re = (valibotAction as { requirement?: unknown }).requirement;
      if (valibotAction.type === 'regex' && re instanceof RegExp && re.flags === 'i') return { ...jsonSchema, pattern: caseFold(re.source) };
      return undefined;
    },
  };
}

/** Response objects are closed: a field the mock sends but the document does not name fails the suite. */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.type === 'object' && o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
  for (const [k, val] of Object.entries(o)) if (k !== 'default' && k !== 'const' && k !== 'enum') closeObjects(val);
}

function strip$schema(s: JsonSchema): Json {
  const { $schema: _drop, ...rest } = s as Json;
  return rest;
}

const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string; validation?: boolean }> = {
  400: { name: 'BadRequest', description: 'The token grant failed (`invalid_grant`), or a body\'s bytes are not text in any encoding JSON allows (`body_unreadable`, FastAPI\'s "There was an error parsing the body") (management envelope)' },
  401: { name: 'Unauthenticated', description: 'Authentication failed (management envelope with `next_action`; `WWW-Authenticate: Bearer`)' },
  403: { name: 'Forbidden', description: 'The actor lacks the required project authority (management envelope); on /_mock, a cross-site Origin' },
  404: { name: 'NotFound', description: 'The project or scoped resource does not exist or is not visible (management envelope); also unknown routes' },
  409: { name: 'Conflict', description: 'The state forbids the operation (management envelope)' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the limit (management envelope, `payload_too_large`)' },
  415: { name: 'UnsupportedMediaType', description: 'A control request declared a Content-Type other than JSON (management envelope); nothing changed' },
  421: { name: 'MisdirectedRequest', description: 'The Host is not one the control surface answers to (management envelope); nothing changed' },
  422: { name: 'ValidationFailed', description: 'Validation error: malformed JSON, wrong type, missing field, bad enum, out-of-range query, bad path id', validation: true },
};

function reasonCodesFor(status: number): string[] {
  return Object.entries(REASON_CODES)
    .filter(([, spec]) => spec.status === status)
    .map(([code]) => code);
}

/** The error responses some operation refers to (a component nothing uses is lint noise, e.g. 421 with control off). */
function errorResponses(operations: OperationSpec[]): Json {
  const used = new Set(operations.flatMap((op) => op.errors).map(String));
  const out: Json = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    if (!used.has(status)) continue;
    const codes = reasonCodesFor(Number(status));
    const description = r.validation ? r.description : `${r.description}. Reason codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`;
    const response: Json = {
      description,
      content: { 'application/json': { schema: { $ref: refTo(r.validation ? 'ValidationErrorV3' : 'ManagementErrorV3') } } },
    };
    if (status === '401') response.headers = { 'WWW-Authenticate': { description: '`Bearer`', required: true, schema: { type: 'string' } } };
    out[r.name] = response;
  }
  return out;
}

/** An object schema's entries as OpenAPI parameters, converted one by one. */
function parameters(where: 'path' | 'query', schema: ObjectSchema | undefined, toJson: (s: AnySchema) => Json): Json[] {
  if (!schema) return [];
  return Object.entries(schema.entries).map(([name, entry]) => {
    const optional = entry.type === 'optional' || entry.type === 'nullish';
    const s = toJson(entry);
    return { name, in: where, required: where === 'path' || !optional, schema: s };
  });
}

export interface BuildOptions {
  /** Include the /_mock control surface (it exists only when control is on). */
  control: boolean;
  /** The mock runs with a control token: every /_mock route requires `X-Mock-Control-Token`. */
  controlToken?: boolean;
}

/** The credentials as security schemes (CONTRACT sections 3 and 5; the control token of section 8). */
const SECURITY_SCHEMES: Record<SecurityScheme, { key: string; scheme: Json }> = {
  bearer: {
    key: 'bearerAuth',
    scheme: { type: 'http', scheme: 'bearer', description: 'An access token from POST /api/v3/auth/token, or one seeded by fixtures. Every management endpoint accepts it.' },
  },
  adminKey: {
    key: 'adminKey',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Admin-Key',
      description:
        'The configured admin key (`--admin-key`; compared in constant time). Accepted on endpoints 2, 3, 13, 18 and 20 only, as an alternative to a bearer token, and grants every authority there. A wrong key is 401 `admin_key_invalid`; on any other endpoint it is no credential (401 `authentication_required`).',
    },
  },
  chatSecret: {
    key: 'chatSecret',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Chatapp-Secret-Token',
      description: 'The webhook secret of the connection binding named in the path (endpoint 16; compared in constant time). Wrong or absent: 401 `webhook_secret_invalid`.',
    },
  },
  brokerSignature: {
    key: 'brokerSignature',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Broker-Hmac-Sha256',
      description:
        'Not a fixed key: the lowercase hex HMAC-SHA256 of the exact raw request body with the broker secret (`--broker-secret`), computed for each request (endpoint 19). Missing or wrong: 401 `broker_signature_invalid`.',
    },
  },
  controlToken: {
    key: 'controlToken',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Mock-Control-Token',
      description: 'The token the mock was started with (`--control-token`, `createApp({ controlToken })`); when one is set, every /_mock route requires it. Not part of v3.',
    },
  },
};

/** OpenAPI security requirements: one alternative per accepted credential; `[]` = public. */
function securityOf(op: OperationSpec, options: BuildOptions): Json[] {
  return op.security.filter((s) => s !== 'controlToken' || options.controlToken).map((s) => ({ [SECURITY_SCHEMES[s].key]: [] }));
}

export function buildOpenApi(options: BuildOptions): Json {
  const operations: OperationSpec[] = [...V3_OPERATIONS, ...(options.control ? CONTROL_OPERATIONS : [])];

  // Collect every named schema, split by direction (responses are closed, requests stay open: unknown body fields are ignored).
  const requestDefs: Record<string, AnySchema> = {};
  const responseDefs: Record<string, AnySchema> = { ManagementErrorV3: ManagementErrorSchema, ValidationErrorV3: ValidationErrorSchema };
  const add = (into: Record<string, AnySchema>, name: string, schema: AnySchema) => {
    const prev = requestDefs[name] ?? responseDefs[name] ?? SHARED_DEFS[name];
    if (prev && prev !== schema) throw new Error(`openapi: two different schemas named ${name}`);
    into[name] = schema;
  };
  for (const op of operations) {
    if (op.body) add(requestDefs, op.body.schema.name, op.body.schema.schema);
    for (const s of op.success) if (s.body && 'name' in s.body) add(responseDefs, s.body.name, s.body.schema);
  }
  const allDefs: Record<string, AnySchema> = { ...SHARED_DEFS, ...requestDefs, ...responseDefs };
  const config = conversionConfig(allDefs);
  const converted = toJsonSchemaDefs(allDefs, config) as Record<string, JsonSchema>;
  const schemas: Json = {};
  const requestOnly = new Set(['MutationV3', 'BundleV3', ...Object.keys(requestDefs)]);
  for (const name of Object.keys(allDefs).sort()) {
    const s = strip$schema(converted[name]);
    if (!requestOnly.has(name)) closeObjects(s);
    schemas[name] = s;
  }
  // Parameters are converted inline, without definitions (they are flat objects of scalars).
  const paramJson = (s: AnySchema) => strip$schema(toJsonSchema(s, { ...config, definitions: undefined }));

  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const params: Json[] = [...parameters('path', op.pathParams, paramJson), ...parameters('query', op.query, paramJson)];
    for (const h of op.headers ?? []) params.push({ name: h.name, in: 'header', required: !!h.required, description: h.description, schema: { type: 'string' } });

    const responses: Json = {};
    for (const s of op.success) {
      const r: Json = { description: s.description };
      if (s.body && 'name' in s.body) r.content = { 'application/json': { schema: { $ref: refTo(s.body.name) } } };
      else if (s.body) r.content = { [s.body.contentType]: { schema: { type: 'string' } } };
      if (s.headers) {
        r.headers = Object.fromEntries(Object.entries(s.headers).map(([k, h]) => [k, { description: h.description, required: h.required, schema: { type: 'string' } }]));
      }
      responses[String(s.status)] = r;
    }
    // Any operation that reads a body can meet bytes that are not text (400) and a body over the limit (413).
    const statuses = new Set<ErrorStatus>(op.errors);
    if (op.body) for (const status of [400, 413] as const) statuses.add(status);
    for (const status of [...statuses].sort()) responses[String(status)] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };

    const operation: Json = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      description: op.description,
      security: securityOf(op, options),
      ...(params.length ? { parameters: params } : {}),
      ...(op.body
        ? { requestBody: { required: op.body.required, content: { 'application/json': { schema: { $ref: refTo(op.body.schema.name) } } } } }
        : {}),
      responses,
    };
    (paths[op.path] ??= {})[op.method] = operation;
  }

  const tags = [
    ...V3_TAGS.map((name) => ({ name, description: `v3: ${name}` })),
    ...(options.control
      ? [{ name: 'control', description: 'The /_mock control surface of the test double (CONTRACT section 8; not part of v3): an admin API (JSON bodies only, a loopback or allowed Host, no cross-site Origin, the control token when configured). Absent when control is off.' }]
      : []),
  ];

  return {
    openapi: '3.1.0',
    info: {
      title: 'Project Management and Runtime Service v3 (project-runtime-mock)',
      version: '3.0.0',
      description: [
        'A faithful, stateful test double of the v3 interface, generated from the valibot schemas that validate its requests and responses.',
        '',
        'Credentials are security schemes: a bearer token on every management endpoint, or the admin key on endpoints 2, 3, 13, 18 and 20; the binding secret on the chat webhook (16); the body HMAC on the broker webhook (19); none on the token exchange (1).',
        '',
        'Errors: every error except validation (422) is the management envelope `{"detail":{"reason_code","message",...}}`; validation is `{"detail":[{"loc","msg","type","input"?,"ctx"?}]}`.',
        'An unknown path answers 404 `route_not_found` and a known path with another method 405 `method_not_allowed`, both in the management envelope.',
        'A 5xx is always a defect of the mock, so none is documented. This document (/openapi.json) and its Swagger UI page (/docs) are served outside it, as FastAPI serves its own.',
      ].join('\n'),
      contact: { name: 'project-runtime-mock maintainers' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas,
      responses: errorResponses(operations),
      // Only the schemes some operation accepts (the control token only when the mock runs with one).
      securitySchemes: Object.fromEntries(
        Object.values(SECURITY_SCHEMES)
          .filter(({ key }) => operations.some((op) => securityOf(op, options).some((alt) => key in alt)))
          .map(({ key, scheme }) => [key, scheme]),
      ),
    },
  };
}

const cache = new Map<string, Json>();

/** The document for this control setting, built once per process. */
export function openApiDocument(control: boolean, controlToken = false): Json {
  const key = `${control}:${control && controlToken}`;
  let doc = cache.get(key);
  if (!doc) {
    doc = buildOpenApi({ control, controlToken: control && controlToken });
    cache.set(key, doc);
  }
  return doc;
}
