// esbuild plugin for the package bundle: mime-types (and the mime-db table under it, two copies of ~200 KB) load on
// their first real use instead of at import, so a fresh process's first mock skips evaluating them.
// koa asks contentType() for the same few short names on every JSON, text or binary body; those answers are computed
// here, at build time, by the very mime-types copy each importer gets, so they are the same as a lookup would give.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';

/** The inputs koa's body setter and our handlers give contentType(): precomputed per mime-types copy. */
export const KNOWN_TYPES = ['json', 'text', 'html', 'bin', 'application/json'] as const;

/** contentType() of each known input, by the mime-types module at `path`. */
export function knownContentTypes(path: string): Record<string, string | false> {
  const mime = createRequire(import.meta.url)(path) as { contentType(s: string): string | false };
  return Object.fromEntries(KNOWN_TYPES.map((t) => [t, mime.contentType(t)]));
}

/** A module with mime-types' used API (contentType, lookup, charset, extension) that requires the real one on first need. */
export function facadeSource(path: string): string {
  return `let real;
const load = () => (real ??= require(${JSON.stringify(path)}));
const KNOWN = ${JSON.stringify(knownContentTypes(path))};
exports.contentType = (str) => (typeof str === 'string' && Object.hasOwn(KNOWN, str) ? KNOWN[str] : load().contentType(str));
exports.lookup = (path) => load().lookup(path);
exports.charset = (type) => load().charset(type);
exports.extension = (type) => load().extension(type);
`;
}

export function lazyMime(): Plugin {
  return {
    name: 'lazy-mime',
    setup(build) {
      build.onResolve({ filter: /^mime-types$/ }, async (args) => {
        if (args.namespace === 'lazy-mime') return undefined;
        const real = await build.resolve('mime-types', { resolveDir: args.resolveDir, kind: args.kind, namespace: 'lazy-mime' });
        if (real.errors.length > 0) return { errors: real.errors };
        return { path: real.path, namespace: 'lazy-mime' };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-mime' }, (args) => ({ contents: facadeSource(args.path), loader: 'js', resolveDir: '/' }));
      // The table as one JSON string: parsed when first needed, and cheap for V8 to skip until then.
      build.onLoad({ filter: /[\\/]mime-db[\\/]db\.json$/ }, async (args) => {
        const text = JSON.stringify(JSON.parse(await readFile(args.path, 'utf8')));
        return { contents: `module.exports = JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
      });
    },
  };
}
