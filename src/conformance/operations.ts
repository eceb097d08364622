// The v3 operations as the served OpenAPI document declares them (method, path, parameters, body, credentials), and
// how a probe fills a path: the probes are derived from the document, so a new operation is probed without a new table.
import type { Schema } from '../compare/index.js';
import { resolve } from '../compare/index.js';

interface Param {
  name: string;
  schema: Schema;
}
export interface Operation {
  id: string;
  method: string;
  template: string;
  pathParams: Param[];
  query: Param[];
  body?: Schema;
  /** The credentials the operation takes: bearerAuth, adminKey, chatSecret, brokerSignature; none for the token grant. */
  security: string[];
}

/** Every v3 operation of the document, in its order. */
export function v3Operations(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Schema>>)) {
    if (!template.startsWith('/api/v3/')) continue;
    for (const [method, op] of Object.entries(item)) {
      if (typeof op.operationId !== 'string') continue;
      const params = ((op.parameters ?? []) as Schema[]).map((p) => resolve(doc, p));
      const param = (p: Schema): Param => ({ name: String(p.name), schema: (p.schema ?? {}) as Schema });
      const content = op.requestBody ? (resolve(doc, op.requestBody as Schema).content as Record<string, { schema?: Schema }>) : undefined;
      out.push({
        id: op.operationId,
        method: method.toUpperCase(),
        template,
        pathParams: params.filter((p) => p.in === 'path').map(param),
        query: params.filter((p) => p.in === 'query').map(param),
        body: content?.['application/json']?.schema,
        security: ((op.security ?? []) as Record<string, unknown>[]).flatMap((s) => Object.keys(s)),
      });
    }
  }
  return out;
}

export const isManagement = (op: Operation) => op.security.includes('bearerAuth');
export const takesAdminKey = (op: Operation) => op.security.includes('adminKey');
/** Operations that change the project itself: they get no real project but the disposable one. */
export const CHANGES_PROJECT = new Set(['setBudget', 'deleteProject', 'transferProject']);

/** The path with each `{name}` replaced by its value (encoded), and the query appended. */
export function fill(op: Operation, values: Record<string, string>, query: Record<string, string> = {}): string {
  const path = op.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `conformance-${name}`));
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

/** A body every contract-following service accepts as valid for the operation (the probes send it where only ids matter). */
export function validBody(op: Operation, random: () => string): string | undefined {
  if (!op.body) return undefined;
  switch (op.id) {
    case 'deleteProject':
      return JSON.stringify({ confirmation: 'conformance-probe' });
    case 'transferProject':
      return JSON.stringify({ workspace_id: random() });
    case 'deleteUser':
      return JSON.stringify({ confirmation: 'delete-application-user' });
    case 'planDesiredState':
      return JSON.stringify({ base_revision_id: random(), mutation: { type: 'project.metadata.update', metadata: {} } });
    case 'exchangeToken':
      return JSON.stringify({ grant_type: 'refresh_token', refresh_token: `conformance-${random()}` });
    default:
      return '{}';
  }
}

/** Path values for a probe: the project (or a random one), every other UUID id random, other ids a probe's own text. */
export function pathValues(op: Operation, project: string | undefined, random: () => string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const p of op.pathParams) {
    const uuid = (resolve({}, p.schema) as Schema).format === 'uuid';
    values[p.name] = p.name === 'project_id' && project ? project : uuid ? random() : `conformance-${random().slice(0, 8)}`;
  }
  return values;
}
