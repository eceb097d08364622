// A whole JSON document read as a stream (its record arrays filled element by element), and a depth check for JSON text.
import { streamJsonFile, type StreamOptions } from './json-stream.js';

export { JsonStreamError } from './json-stream.js';

/**
 * The whole document, with each record array filled from its streamed elements; `map` may check or
 * replace each element as it arrives (its index is the element's position in its array).
 */
export async function readJsonStreaming(
  file: string,
  options: Omit<StreamOptions, 'onRecord'> & { map?: (path: readonly string[], value: unknown, index: number) => unknown },
): Promise<unknown> {
  const lists = new Map<string, { path: readonly string[]; items: unknown[] }>();
  let current: { path: readonly string[]; items: unknown[] } | undefined;
  const skeleton = await streamJsonFile(file, {
    ...options,
    onArray(path) {
      // A key given twice keeps its last value, as JSON.parse does.
      current = { path, items: [] };
      lists.set(path.join('\u0000'), current);
    },
    onRecord(path, value) {
      current!.items.push(options.map ? options.map(path, value, current!.items.length) : value);
    },
  });
  for (const { path, items } of lists.values()) {
    let at = skeleton as Record<string, unknown>;
    for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
    if (Array.isArray(at[path[path.length - 1]])) at[path[path.length - 1]] = items;
  }
  return skeleton;
}

/** True when the JSON text in `buf` nests containers deeper than `max` (checked before parsing, strings skipped). */
export function nestedDeeperThan(buf: Buffer, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (b === 0x22) {
      // Skip the string: find its closing quote, stepping over escapes.
      for (i++; i < buf.length; i++) {
        const c = buf[i];
        if (c === 0x5c) i++;
        else if (c === 0x22) break;
      }
    } else if (b === 0x7b || b === 0x5b) {
      if (++depth > max) return true;
    } else if (b === 0x7d || b === 0x5d) depth--;
  }
  return false;
}
