// Builds the OpenAPI 3.1 document from the operation catalog, converting every valibot schema with
// @valibot/to-json-schema. Built once per process and control setting (cached), served by routes/docs.ts.
import { VerificationFailureSchema } from '../openapi/index.js';
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ApprovalResponseSchema } from '../schemas/index.js';
import { BundleSchema, MutationSchema, SemanticChangeSchema, DesiredStateHeadSchema } from '../schemas/index.js';
import { JobResponseSchema } from '../schemas/index.js';
import { ReleaseResponseSchema } from '../schemas/index.js';
import { RunStepSchema, RunTimingSchema } from '../schemas/index.js';
import { UserResponseSchema } from '../schemas/index.js';
import { CONTROL_OPERATIONS, V3_OPERATIONS, type OperationSpec } from './operations.js';
import { ERROR_RESPONSES, errorResponses, errorStatusesOf } from '../openapi/index.js';
import { securityOf, securitySchemes, type SecurityOptions } from '../openapi/index.js';
import { ManagementErrorSchema } from '../openapi/index.js';
import { ValidationErrorSchema } from './validation-error.js';

type AnySchema = v.GenericSchema<unknown, unknown>;
type ObjectSchema = v.ObjectSchema<v.ObjectEntries, undefined>;
type Json = Record<string, unknown>;

const V3_TAGS = ['auth', 'connections', 'releases', 'runs', 'projects', 'users', 'desired-state', 'approvals', 'jobs', 'webhooks'];

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
function caseFold(source: string): string {
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

/** An object schema's entries as OpenAPI parameters, converted one by one. */
function parameters(where: 'path' | 'query', schema: ObjectSchema | undefined, toJson: (s: AnySchema) => Json): Json[] {
  if (!schema) return [];
  return Object.entries(schema.entries).map(([name, entry]) => {
    const optional = entry.type === 'optional' || entry.type === 'nullish';
    const s = toJson(entry);
    return { name, in: where, required: where === 'path' || !optional, schema: s };
  });
}

/** `control`: include the /_mock control surface; `controlToken`: the mock requires `X-Mock-Control-Token` there. */
export type BuildOptions = SecurityOptions;

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
  if (operations.some((op) => op.errors.includes(417))) add(responseDefs, 'VerificationFailure', VerificationFailureSchema);
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
    for (const h of op.headers ?? [])
      params.push({ name: h.name, in: 'header', required: !!h.required, description: h.description, schema: { type: 'string' } });

    const responses: Json = {};
    for (const s of op.success) {
      const r: Json = { description: s.description };
      if (s.body && 'name' in s.body) r.content = { 'application/json': { schema: { $ref: refTo(s.body.name) } } };
      else if (s.body) r.content = { [s.body.contentType]: { schema: { type: 'string' } } };
      if (s.headers) {
        r.headers = Object.fromEntries(
          Object.entries(s.headers).map(([k, h]) => [k, { description: h.description, required: h.required, schema: { type: 'string' } }]),
        );
      }
      responses[String(s.status)] = r;
    }
    for (const status of errorStatusesOf(op)) responses[String(status)] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };

    const operation: Json = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      description: op.description,
      security: securityOf(op, options),
      ...(params.length ? { parameters: params } : {}),
      ...(op.body ? { requestBody: { required: op.body.required, content: { 'application/json': { schema: { $ref: refTo(op.body.schema.name) } } } } } : {}),
      responses,
    };
    (paths[op.path] ??= {})[op.method] = operation;
  }

  const tags = [
    ...V3_TAGS.map((name) => ({ name, description: `v3: ${name}` })),
    ...(options.control
      ? [
          {
            name: 'control',
            description:
              'The /_mock control surface of the test double (not part of v3; docs/control-surface.md in the package): an admin API (JSON bodies only, a loopback or allowed Host, no cross-site Origin, the control token when configured). Absent when control is off.',
          },
        ]
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
      securitySchemes: securitySchemes(operations, options),
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
