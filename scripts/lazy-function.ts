// esbuild plugin for the bundles: a CommonJS module whose export is a function with function properties (koa's
// http-assert, behind ctx.assert) becomes a facade of the same shape that requires the real module at its first call,
// so a fresh process does not evaluate it, nor the copies of http-errors, statuses and depd it brings, until then.
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';

/** `function name(p0, …) { … }` forwarding to `target`, with the real function's name (or none) and arity. */
const forward = (name: string, arity: number, target: string) =>
  `function ${name}(${Array.from({ length: arity }, (_, i) => `p${i}`).join(', ')}) {\n  return ${target}.apply(this, arguments);\n}`;

/** The facade of the module at `path`: the export and each of its function properties, forwarding to the real module. */
export function functionFacadeSource(path: string): string {
  const real = createRequire(import.meta.url)(path) as ((...args: unknown[]) => unknown) & Record<string, unknown>;
  if (typeof real !== 'function') throw new Error(`${path} does not export a function`);
  const props = Object.entries(real).filter((e): e is [string, (...args: unknown[]) => unknown] => typeof e[1] === 'function');
  return [
    'let real;',
    `const load = () => (real ??= require(${JSON.stringify(path)}));`,
    `module.exports = ${forward(real.name, real.length, 'load()')};`,
    ...props.map(([key, fn]) => `module.exports[${JSON.stringify(key)}] = ${forward(fn.name, fn.length, `load()[${JSON.stringify(key)}]`)};`),
    '',
  ].join('\n');
}

/** Each of `names` (bare package names) resolves to its facade; the facade's require of the real module is bundled. */
export function lazyFunction(names: string[]): Plugin {
  const filter = new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
  return {
    name: 'lazy-function',
    setup(build) {
      build.onResolve({ filter }, async (args) => {
        if (args.namespace === 'lazy-function') return undefined;
        const real = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, namespace: 'lazy-function' });
        if (real.errors.length > 0) return { errors: real.errors };
        return { path: real.path, namespace: 'lazy-function' };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-function' }, (args) => ({ contents: functionFacadeSource(args.path), loader: 'js', resolveDir: '/' }));
    },
  };
}

/** The modules every bundle defers this way. */
export const LAZY_FUNCTIONS = ['http-assert'];
