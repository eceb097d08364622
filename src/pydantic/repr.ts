// Python's repr() of the JSON scalars pydantic quotes in its messages ('a', 1, True, None), and its "a, b or c" joins.

/** repr() of a str: single quotes unless the text holds a single quote and no double quote (then double quotes). */
function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** repr() of a JSON scalar as Python holds it. */
export function pyRepr(x: unknown): string {
  if (typeof x === 'string') return pyStrRepr(x);
  if (x === true) return 'True';
  if (x === false) return 'False';
  if (x === null || x === undefined) return 'None';
  return String(x);
}

/** pydantic-core's expected_repr_name: "'a'", "'a' or 'b'", "'a', 'b' or 'c'". */
export function pyOrList(values: readonly unknown[]): string {
  const reprs = values.map(pyRepr);
  const last = reprs.pop() ?? '';
  return reprs.length === 0 ? last : `${reprs.join(', ')} or ${last}`;
}
