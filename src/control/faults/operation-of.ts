// The v3 operation id of a method and path (`cancelRun`), found before routing so faults can match on it.
import { OPERATIONS } from '../operations.js';

interface Template {
  operation: string;
  method: string;
  /** Per segment: the literal, or null for a parameter. */
  segments: (string | null)[];
}

const BY_SIZE = new Map<number, Template[]>();
for (const op of OPERATIONS) {
  const segments = op.path
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith('{') ? null : s));
  const list = BY_SIZE.get(segments.length) ?? [];
  list.push({ operation: op.operation, method: op.method, segments });
  BY_SIZE.set(segments.length, list);
}

/** The operation a request would reach (as the route table matches: literals ignoring case, one trailing slash), or null. */
export function operationOf(method: string, path: string): string | null {
  const parts = path.split('/').slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const m = method.toUpperCase();
  for (const t of BY_SIZE.get(parts.length) ?? []) {
    if (t.method !== m) continue;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const lit = t.segments[i];
      ok = lit === null ? parts[i] !== '' : parts[i].toLowerCase() === lit;
    }
    if (ok) return t.operation;
  }
  return null;
}

/** The method of an operation id, or undefined for an unknown one. */
export const methodOfOperation = (operation: string): string | undefined => OPERATIONS.find((o) => o.operation === operation)?.method;
