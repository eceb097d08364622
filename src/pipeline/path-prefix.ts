// The path prefix a request came with when it reached a sandbox by path (/sandboxes/{id}/...): the sandbox router marks
// it, and pages and /openapi.json link under it.
import type { IncomingMessage } from 'node:http';

const PATH_PREFIX = Symbol('sandbox path prefix');

/** Marks a request handed to a sandbox with the path prefix it came with (its pages link under it). */
export function markPathPrefix(req: IncomingMessage, prefix: string): void {
  (req as { [PATH_PREFIX]?: string })[PATH_PREFIX] = prefix;
}

/** '/sandboxes/{id}' for a request that reached its sandbox by path prefix, else '' (pages and /openapi.json link from here). */
export function pathPrefixOf(req: IncomingMessage): string {
  return (req as { [PATH_PREFIX]?: string })[PATH_PREFIX] ?? '';
}
