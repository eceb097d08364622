// Koa's application class, required at its first use: a mock whose requests all take the fast path never loads Koa.
import { createRequire } from 'node:module';
import type Koa from 'koa';

let loaded: typeof Koa | undefined;

/**
 * Koa (CommonJS) required synchronously, once per process. The bundles carry koa inside: their build turns this call
 * into the bundle's own require of its copy (scripts/lazy-require.ts), so a fresh process evaluates none of koa's
 * files, nor its helpers and node:v8, until a server needs its app.
 */
export function koaClass(): typeof Koa {
  return (loaded ??= createRequire(import.meta.url)('koa') as typeof Koa);
}
