// Compares the mock's and the target's answers to one request on what needs no shared data: status, error envelope,
// reason code, next_action presence, validation items, the response schema of the served OpenAPI document, fingerprints.
import { sameJson } from '../json.js';
import { bounded, checkShape, resolve, type Schema, type ShapeFindings } from './shape.js';
import { droppedFields, type DroppedFindings } from './dropped.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}
export interface Difference {
  field: string;
  mock: unknown;
  target: unknown;
}
export interface Comparison {
  differences: Difference[];
  compatible: Difference[];
  /** Optional fields the mock sent and the target left out (a required one is a difference). */
  warnings: Difference[];
}
export interface CompareOptions {
  /** The OpenAPI document whose response schemas the target's bodies are held to (the mock's /openapi.json). */
  document: Schema;
  /** The fingerprint the contract gives a list of semantic changes (diffRelease, planDesiredState). */
  fingerprint: (changes: unknown[]) => string;
  /** The request's inputs are the probe's own (not data of either side), so validation items' `input` must agree too. */
  ownInput?: boolean;
}

/** Headers whose presence the contract fixes for a status (a 401's challenge, a 201's new resource). */
const HEADERS_BY_STATUS: Record<number, string[]> = { 401: ['www-authenticate'], 201: ['location'], 503: ['retry-after'] };
/** Operations whose answer carries `changes` and the fingerprint that must be recomputable from them. */
const FINGERPRINTED = new Set(['diffRelease', 'planDesiredState']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What kind of error body this is: pydantic validation items, the management envelope, or something else. */
export function envelopeOf(body: unknown): 'validation items' | 'management envelope' | 'other' {
  if (!isObject(body)) return 'other';
  if (Array.isArray(body.detail)) return 'validation items';
  if (isObject(body.detail) && typeof body.detail.reason_code === 'string') return 'management envelope';
  return 'other';
}

/** Each document's answer schemas by operation and status, looked up once: shadow mode compares on every request. */
const schemas = new WeakMap<Schema, Map<string, Schema | undefined>>();

/** The JSON schema of an operation's answer with this status in the document, if it declares one. */
export function responseSchema(doc: Schema, operation: string, status: number): Schema | undefined {
  let known = schemas.get(doc);
  if (!known) schemas.set(doc, (known = new Map()));
  const key = `${operation} ${status}`;
  if (known.has(key)) return known.get(key);
  const schema = findResponseSchema(doc, operation, status);
  known.set(key, schema);
  return schema;
}

function findResponseSchema(doc: Schema, operation: string, status: number): Schema | undefined {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Schema>>)) {
    for (const op of Object.values(item)) {
      if (!isObject(op) || op.operationId !== operation) continue;
      const responses = (op.responses ?? {}) as Record<string, Schema>;
      const response = responses[String(status)] ?? responses.default;
      if (!response) return undefined;
      const content = resolve(doc, response).content as Record<string, { schema?: Schema }> | undefined;
      return content?.['application/json']?.schema;
    }
  }
  return undefined;
}

/** Compares one request's answers from the mock and the target, on what is comparable without the same data. */
export function compareAnswers(operation: string, mock: Answer, target: Answer, options: CompareOptions): Comparison {
  const found: ShapeFindings & Pick<DroppedFindings, 'warnings'> = { differences: new Map(), compatible: new Map(), warnings: new Map() };
  const differ = (field: string, m: unknown, t: unknown) => {
    if (!found.differences.has(field)) found.differences.set(field, { field, mock: bounded(m), target: bounded(t) });
  };
  // A different status makes the rest incomparable: the bodies answer different questions.
  if (mock.status !== target.status) {
    differ('status', mock.status, target.status);
    return done(found);
  }
  for (const name of HEADERS_BY_STATUS[mock.status] ?? []) {
    const m = header(mock.headers, name) !== undefined;
    if (m !== (header(target.headers, name) !== undefined)) differ(`headers.${name}`, m ? 'present' : 'absent', m ? 'absent' : 'present');
  }
  if (mock.status >= 400) {
    const kind = envelopeOf(mock.body);
    const targetKind = envelopeOf(target.body);
    if (kind !== targetKind) {
      differ('body.detail', kind, targetKind);
      return done(found);
    }
    if (kind === 'management envelope') compareEnvelopes((mock.body as Json).detail as Json, (target.body as Json).detail as Json, differ);
    if (kind === 'validation items') compareItems((mock.body as Json).detail as Json[], (target.body as Json).detail as Json[], !!options.ownInput, differ);
    if (kind === 'validation items') return done(found); // the items are compared one by one above, in order
  }
  const doc = options.document;
  const schema = responseSchema(doc, operation, mock.status);
  // What the mock sends and the target dropped: a required field is a difference, an optional one a warning.
  droppedFields(doc, schema, mock.body, target.body, 'body', found);
  if (schema) checkShape(doc, schema, target.body, 'body', found);
  if (mock.status < 300 && FINGERPRINTED.has(operation)) checkFingerprint(target.body, options.fingerprint, differ);
  return done(found);
}

const done = (found: ShapeFindings & Pick<DroppedFindings, 'warnings'>): Comparison => ({
  differences: [...found.differences.values()],
  compatible: [...found.compatible.values()],
  warnings: [...found.warnings.values()],
});

function header(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

type Differ = (field: string, mock: unknown, target: unknown) => void;

function compareEnvelopes(mock: Json, target: Json, differ: Differ): void {
  if (mock.reason_code !== target.reason_code) differ('body.detail.reason_code', mock.reason_code, target.reason_code);
  const m = mock.next_action !== undefined && mock.next_action !== null;
  const t = target.next_action !== undefined && target.next_action !== null;
  if (m !== t) differ('body.detail.next_action', m ? 'present' : 'absent', t ? 'present' : 'absent');
}

const ITEM_KEYS = ['type', 'loc', 'msg', 'ctx'] as const;
const itemKey = (item: Json, withInput: boolean) => JSON.stringify([...ITEM_KEYS.map((k) => item[k] ?? null), withInput ? (item.input ?? null) : null]);
const itemName = (item: Json) => `${String(item.type)} at ${JSON.stringify(item.loc)}`;

/** pydantic items in order: the same items in another order is one difference (order), else each field that differs. */
function compareItems(mock: Json[], target: Json[], withInput: boolean, differ: Differ): void {
  const keys = (items: Json[]) => items.map((i) => (isObject(i) ? itemKey(i, withInput) : JSON.stringify(i)));
  const m = keys(mock);
  const t = keys(target);
  if (m.length !== t.length) {
    differ(
      'body.detail',
      mock.map((i) => itemName(i)),
      target.map((i) => (isObject(i) ? itemName(i) : i)),
    );
    return;
  }
  if (m.join('\n') !== t.join('\n') && [...m].sort().join('\n') === [...t].sort().join('\n')) {
    differ('body.detail[].order', mock.map(itemName), target.map(itemName));
    return;
  }
  mock.forEach((item, i) => {
    const other = target[i];
    if (!isObject(other)) return differ(`body.detail[${i}]`, item, other);
    for (const k of [...ITEM_KEYS, ...(withInput ? (['input'] as const) : [])]) {
      if (!sameJson(item[k] ?? null, other[k] ?? null)) differ(`body.detail[${i}].${k}`, item[k], other[k]);
    }
  });
}

const FINGERPRINT_RULE = 'SHA-256 of the canonical JSON of the sorted changes';

/** The fingerprint must be the SHA-256 of the canonical JSON of the returned changes, sorted as the contract says. */
function checkFingerprint(body: unknown, fingerprint: CompareOptions['fingerprint'], differ: Differ): void {
  if (!isObject(body) || !Array.isArray(body.changes) || typeof body.semantic_diff_fingerprint !== 'string') return;
  let expected: string;
  try {
    expected = fingerprint(body.changes);
  } catch {
    return; // changes JSON cannot canonicalize are a shape difference, reported by the schema walk
  }
  // Named as a cause, not by the two hashes (data of each answer): one wrong recipe is one finding, whichever diff shows it.
  if (expected !== body.semantic_diff_fingerprint) differ('body.semantic_diff_fingerprint', FINGERPRINT_RULE, 'another value');
}
