// Options objects checked at run time, for callers without TypeScript (or past a cast): an unknown name or a value of
// the wrong kind is a TypeError naming it, with the closest known name, not a failure far from the cause.
import { closestKey } from './pydantic/index.js';

const hintFor = (given: string, known: readonly string[]) => {
  const close = closestKey(given, known);
  return close === undefined ? '' : ` (did you mean '${close}'?)`;
};

/** Throws a TypeError for the first key of `options` that `known` does not list. */
export function checkOptionNames(what: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError(`${what}: options must be an object`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new TypeError(`${what}: unknown option '${key}'${hintFor(key, known)}; known options: ${known.join(', ')}`);
  }
}

/** A storage option: 'memory', or an adapter (an object with read() and write()). */
export function checkStorage(what: string, storage: unknown): void {
  if (storage === undefined || storage === 'memory') return;
  if (typeof storage === 'string')
    throw new TypeError(`${what}: storage '${storage}' is not known${hintFor(storage, ['memory'])}: give 'memory' or a storage adapter`);
  const adapter = storage as { read?: unknown; write?: unknown } | null;
  if (typeof adapter !== 'object' || adapter === null || typeof adapter.read !== 'function' || typeof adapter.write !== 'function') {
    throw new TypeError(
      `${what}: storage must be 'memory' or a storage adapter with read() and write() (MemoryAdapter, JsonFileAdapter, postgresStorage(...))`,
    );
  }
}
