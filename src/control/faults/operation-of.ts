// The v3 operation id of a method and path (`cancelRun`), found before routing so faults can match on it.
import { OPERATIONS } from '../operations.js';
import { closestKey } from '../../pydantic/index.js';
import type { ValidationItem } from '../../validation.js';
import { asciiLower, routedCount, segmentMeets } from '../../path-segments.js';

interface Template {
  operation: string;
  method: string;
  /** Per segment: the literal in lowercase, or null for a parameter. */
  segments: (string | null)[];
}

const BY_SIZE = new Map<number, Template[]>();
for (const op of OPERATIONS) {
  const segments = op.path
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith('{') ? null : asciiLower(s)));
  const list = BY_SIZE.get(segments.length) ?? [];
  list.push({ operation: op.operation, method: op.method, segments });
  BY_SIZE.set(segments.length, list);
}

/** The operation a request would reach (matched by the route table's own rule, path-segments.ts), or null. */
export function operationOf(method: string, path: string): string | null {
  const parts = path.split('/');
  const count = routedCount(parts);
  const templates = BY_SIZE.get(count);
  if (!templates) return null;
  const m = method.toUpperCase();
  for (const t of templates) {
    if (t.method !== m) continue;
    let ok = true;
    for (let i = 0; i < count && ok; i++) ok = segmentMeets(t.segments[i], parts[i + 1]);
    if (ok) return t.operation;
  }
  return null;
}

/** The method of an operation id, or undefined for an unknown one. */
const methodOfOperation = (operation: string): string | undefined => OPERATIONS.find((o) => o.operation === operation)?.method;

const OPERATION_IDS = OPERATIONS.map((o) => o.operation);

/**
 * The 422 item for a name that is not an operation id (faults and verify alike), with the closest id as
 * `ctx.did_you_mean` when one is close: a misspelt id would otherwise match nothing, silently.
 */
export function unknownOperation(loc: (string | number)[], operation: string): ValidationItem | undefined {
  if (methodOfOperation(operation) !== undefined) return undefined;
  const hint = closestKey(operation, OPERATION_IDS);
  const msg = `Not an operation id of /openapi.json (${hint === undefined ? 'such as getRun or cancelRun' : `did you mean "${hint}"?`})`;
  return { loc: ['body', ...loc], msg, type: 'value_error', input: operation, ctx: hint === undefined ? undefined : { did_you_mean: hint } };
}
