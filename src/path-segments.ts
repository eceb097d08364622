// How a request path meets a route template, segment by segment: the one rule the route table and fault matching share.

/** Literals match ignoring ASCII case only, as path-to-regexp's /i regular expressions do (not Unicode's: 'K' is no 'k'). */
export const asciiLower = (s: string): string => (/[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (c) => c.toLowerCase()) : s);

/** Whether a path segment meets a template segment: its literal in lowercase (ASCII case aside), or null, a parameter (any non-empty text). */
export function segmentMeets(lit: string | null, part: string): boolean {
  if (lit === null) return part !== '';
  return part === lit || (part.length === lit.length && asciiLower(part) === lit);
}

/** The segments routing sees in a path split at '/' (parts[0] is the empty text before the leading slash): one trailing slash is ignored. */
export const routedCount = (parts: readonly string[]): number => (parts.length > 2 && parts[parts.length - 1] === '' ? parts.length - 2 : parts.length - 1);
