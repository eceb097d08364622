// esbuild plugin for the bundles: a source's `createRequire(import.meta.url)('<name>')` of a package becomes a require of
// that package's own bundle file beside them (dist/<name>.cjs, built by bundleLazyRequires): one file read instead of the
// package's files resolved in node_modules, and none of it compiled or run before that call (koa: its app's first use;
// light-my-request: the first mock.inject; croner: the first cron schedule read).
// A one-file bundle (the container's) carries the package inside instead, run at that call.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { lazyMime } from './lazy-mime.js';
import { LAZY_FUNCTIONS, lazyFunction } from './lazy-function.js';

/** The source files that require a package so, and the package each requires. */
const LAZY_REQUIRES: Record<string, string> = {
  'src/koa-class.ts': 'koa',
  'src/inprocess/fetch.ts': 'light-my-request',
  'src/simulation/jobs.ts': 'croner',
};

/** The file a package's own bundle is written to, beside the entry and its chunks. */
const ownFile = (name: string) => `${name}.cjs`;

/** `text` with its one `createRequire(import.meta.url)('<name>')` made a plain require of `target` (an error unless it is there once). */
export function bundledRequire(text: string, name: string, target: string, file: string): string {
  const call = `createRequire(import.meta.url)('${name}')`;
  if (text.split(call).length !== 2) throw new Error(`${file} must hold exactly one ${call}`);
  return text.replace(call, `require(${JSON.stringify(target)})`);
}

/**
 * `separate`: the require is of `./<name>.cjs`, left to run time (every file of a split bundle sits in dist/ beside it);
 * else of the package itself, carried inside the bundle and evaluated at that call.
 */
export function lazyRequire(separate: boolean): Plugin {
  const entries = Object.entries(LAZY_REQUIRES);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const sources = new RegExp(`[\\\\/](${entries.map(([f]) => escape(f)).join('|')})$`);
  const own = new RegExp(`^\\./(${entries.map(([, name]) => escape(ownFile(name))).join('|')})$`);
  return {
    name: 'lazy-require',
    setup(b) {
      b.onLoad({ filter: sources }, async (args) => {
        const [, name] = entries.find(([f]) => args.path.replaceAll('\\', '/').endsWith(f))!;
        const target = separate ? `./${ownFile(name)}` : name;
        return { contents: bundledRequire(await readFile(args.path, 'utf8'), name, target, args.path), loader: 'ts' };
      });
      if (separate) b.onResolve({ filter: own }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/** Writes each package LAZY_REQUIRES names as one CommonJS file in `dir` (its MIME table and http-assert deferred as in the bundles). */
export async function bundleLazyRequires(dir: string): Promise<void> {
  for (const name of new Set(Object.values(LAZY_REQUIRES))) {
    await build({
      stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, sourcefile: `lazy-require:${name}`, resolveDir: join(dir, '..'), loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
      outfile: join(dir, ownFile(name)),
      plugins: [lazyMime(), lazyFunction(LAZY_FUNCTIONS)],
    });
  }
}
