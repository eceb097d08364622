// The read-only probes derived from the served document: every operation without credentials, with a wrong token or
// admin key, with random ids, with a malformed parameter or body field of each type, and the check order.
import { malformedBodyValues, malformedParamValues } from './malformed.js';
import { CHANGES_PROJECT, fill, isManagement, pathValues, takesAdminKey, validBody, v3Operations, type Operation } from './operations.js';
import { bearer, type Probe, type ProbeRequest, type Side } from './probe.js';
import { resolve, type Schema } from '../compare/index.js';

const WRONG_TOKEN = 'conformance-wrong-token';
const WRONG_ADMIN_KEY = 'conformance-wrong-admin-key';
const NO_TOKEN = 'no --token given: the probe needs credentials the target accepts';

/** Where a probe's project id comes from: the side's --project, its disposable project, or none (a random id). */
type Scope = 'project' | 'body' | 'random';

/** The project id a side uses for a probe of this scope, or why it has none. */
function projectFor(op: Operation, side: Side, scope: Scope): string | undefined | { reason: string } {
  if (scope === 'random') return undefined;
  if (scope === 'project') return side.project;
  // A body is validated only on a visible project; one that changes the project itself only ever gets the disposable one.
  const project = CHANGES_PROJECT.has(op.id) ? side.disposable : (side.disposable ?? side.project);
  if (project) return project;
  return {
    reason: CHANGES_PROJECT.has(op.id)
      ? 'changes the project itself: runs only on --disposable-project'
      : 'a body is validated on a visible project: pass --project',
  };
}

interface Shape {
  name: string;
  group: string;
  scope: Scope;
  ownInput?: boolean;
  credentials: 'none' | 'token' | 'admin-key' | 'wrong-token' | 'wrong-admin-key';
  values?: Record<string, string>;
  query?: Record<string, string>;
  body?: string;
}

function probe(op: Operation, shape: Shape, random: () => string): Probe {
  const ids = { ...pathValues(op, undefined, random), ...shape.values };
  const body = shape.body ?? validBody(op, random);
  return {
    name: `${op.id}: ${shape.name}`,
    operation: op.id,
    group: shape.group,
    ownInput: shape.ownInput,
    request(side: Side): ProbeRequest | string {
      const project = projectFor(op, side, shape.scope);
      if (typeof project === 'object') return project.reason;
      if (shape.credentials === 'token' && !side.token && op.security.length > 0) return NO_TOKEN;
      if (shape.credentials === 'admin-key' && !side.adminKey) return 'no --admin-key given';
      const values = project && !shape.values?.project_id ? { ...ids, project_id: project } : ids;
      const headers: Record<string, string> =
        shape.credentials === 'token'
          ? bearer(side)
          : shape.credentials === 'wrong-token'
            ? { Authorization: `Bearer ${WRONG_TOKEN}` }
            : shape.credentials === 'admin-key'
              ? { 'X-Admin-Key': side.adminKey! }
              : shape.credentials === 'wrong-admin-key'
                ? { 'X-Admin-Key': WRONG_ADMIN_KEY }
                : {};
      return { method: op.method, path: fill(op, values, shape.query), headers, body };
    },
  };
}

/** Malformed path ids, query values and body fields: one probe per parameter or field and bad value. */
function malformed(doc: Schema, op: Operation, random: () => string): Probe[] {
  const out: Probe[] = [];
  const base = { group: 'malformed', ownInput: true, credentials: 'token' as const };
  for (const p of op.pathParams) {
    for (const bad of malformedParamValues(doc, p.schema))
      out.push(probe(op, { ...base, name: `path ${p.name} ${bad.label}`, scope: 'project', values: { [p.name]: String(bad.value) } }, random));
  }
  for (const q of op.query) {
    for (const bad of malformedParamValues(doc, q.schema))
      out.push(probe(op, { ...base, name: `query ${q.name} ${bad.label}`, scope: 'project', query: { [q.name]: String(bad.value) } }, random));
  }
  // Secret-verified callbacks check their signature first: their bodies are out of reach without the secret.
  if (!op.body || op.security.includes('chatSecret') || op.security.includes('brokerSignature')) return out;
  const schema = resolve(doc, op.body);
  const bodyProbe = (name: string, body: string) => probe(op, { ...base, name, scope: 'body', body }, random);
  out.push(bodyProbe('body json_invalid', '{"reason": '), bodyProbe('body model_attributes_type', '[]'));
  const required = (schema.required ?? []) as string[];
  if (required.length) out.push(bodyProbe(`body missing ${required.join(', ')}`, '{}'));
  const valid = JSON.parse(validBody(op, random) ?? '{}') as Record<string, unknown>;
  const firstBad: [string, unknown][] = [];
  for (const [field, fieldSchema] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const bads = malformedBodyValues(doc, fieldSchema);
    if (bads.length) firstBad.push([field, bads[0].value]);
    for (const bad of bads) out.push(bodyProbe(`body ${field} ${bad.label}`, JSON.stringify({ ...valid, [field]: bad.value })));
  }
  // Two bad fields at once: pydantic reports them in the order the model declares its fields.
  if (firstBad.length >= 2)
    out.push(
      bodyProbe(
        `body ${firstBad[0][0]} and ${firstBad[1][0]} malformed (item order)`,
        JSON.stringify({ ...valid, ...Object.fromEntries(firstBad.slice(0, 2)) }),
      ),
    );
  return out;
}

/** The read-only catalogue. `random` gives the probes' own UUIDs (the same on both sides). */
export function readOnlyCatalogue(doc: Schema, random: () => string): Probe[] {
  const out: Probe[] = [];
  for (const op of v3Operations(doc)) {
    const mutating = CHANGES_PROJECT.has(op.id);
    const scope: Scope = mutating ? 'random' : 'project';
    if (isManagement(op)) {
      out.push(probe(op, { name: 'no credentials', group: 'auth', scope, credentials: 'none' }, random));
      out.push(probe(op, { name: 'wrong token', group: 'auth', scope, credentials: 'wrong-token' }, random));
      if (takesAdminKey(op)) {
        out.push(probe(op, { name: 'wrong admin key', group: 'auth', scope, credentials: 'wrong-admin-key' }, random));
        // A valid key on ids that exist nowhere: the key is accepted, the record is not found.
        out.push(probe(op, { name: 'admin key, random ids', group: 'random-id', scope: 'random', credentials: 'admin-key' }, random));
      }
      out.push(probe(op, { name: 'random project id', group: 'random-id', scope: 'random', credentials: 'token' }, random));
      if (op.pathParams.length > 1 && !mutating)
        out.push(probe(op, { name: 'random ids on --project', group: 'random-id', scope: 'project', credentials: 'token' }, random));
      // 401 before 422: a wrong token with a malformed project id is refused for the token.
      out.push(
        probe(
          op,
          { name: 'wrong token and a malformed id (401 before 422)', group: 'order', scope, credentials: 'wrong-token', values: { project_id: 'not-a-uuid' } },
          random,
        ),
      );
    } else if (op.security.length) {
      // A webhook without its secret or signature, on an unknown binding or a made-up event.
      out.push(probe(op, { name: 'no signature or secret', group: 'auth', scope: 'random', credentials: 'none', body: callbackBody(op, random) }, random));
    } else {
      out.push(probe(op, { name: 'unknown refresh token', group: 'auth', scope: 'random', credentials: 'none' }, random));
    }
    out.push(...malformed(doc, op, random));
  }
  out.push(...orderProbes(doc, random));
  return out;
}

function callbackBody(op: Operation, random: () => string): string {
  if (op.security.includes('chatSecret')) return JSON.stringify({ update_id: 1, message: { from: { id: 'conformance' }, text: 'hello' } });
  return JSON.stringify({ event_id: random(), event_type: 'connection.refreshed', connection_resource_id: random(), occurred_at: '2026-01-01T00:00:00Z' });
}

/** 404 before 409: a missing record is reported before the invariant the request would also break. */
function orderProbes(doc: Schema, random: () => string): Probe[] {
  const ops = new Map(v3Operations(doc).map((op) => [op.id, op]));
  const out: Probe[] = [];
  const del = ops.get('deleteProject');
  if (del) out.push(probe(del, { name: 'random project, wrong confirmation (404 before 409)', group: 'order', scope: 'random', credentials: 'token' }, random));
  const deny = ops.get('denyApproval');
  if (deny) {
    const body = JSON.stringify({ binding_fingerprint: '0'.repeat(64), reason: 'conformance probe' });
    out.push(probe(deny, { name: 'random approval, wrong binding (404 before 409)', group: 'order', scope: 'project', credentials: 'token', body }, random));
  }
  return out;
}
