// The JSON nesting limit: bodies, fixtures and in-process values deeper than 64 levels are refused before anything
// recursive (JSON.stringify, structuredClone, canonicalization, redaction) can overflow the stack on them.

/** Objects and arrays nested inside each other: at most this many levels (`[[1]]` has 2). */
export const MAX_JSON_DEPTH = 64;

/**
 * One pass over JSON text, skipping strings: the index of the `{` or `[` that opens level MAX_JSON_DEPTH + 1, or -1.
 * It allocates nothing and works on malformed text too (then the JSON decoder reports the syntax error).
 */
export function textTooDeepAt(text: string, limit = MAX_JSON_DEPTH): number {
  const n = text.length;
  if (n <= limit) return -1; // too short to hold limit + 1 opening brackets
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string: skip to its closing quote (escapes skip one character)
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > limit) return i;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return -1;
}

/** Whether a value (already in memory) nests objects or arrays deeper than the limit; iterative, so any depth is safe. */
export function jsonValueTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  // A shared object is walked again only when reached deeper than before (so at most `limit` times); a cycle keeps
  // getting deeper, so it is refused like any value too deep.
  const deepest = new Map<object, number>();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    if ((deepest.get(node) ?? 0) >= depth) continue;
    deepest.set(node, depth);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
