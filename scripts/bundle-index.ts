// Build step: the package bundle dist/index.js (everything but pg, swagger-ui-dist, @mswjs/interceptors and prom-client),
// split: what a first mock uses is in index.js and the chunks it imports; what only some mocks use (shadow mode,
// reproduction, the OpenAPI document, the inspector, the metrics exposition) is in chunks of its own (dist/index-*.js),
// loaded by import() at first use. mime-types is loaded on first use too (scripts/lazy-mime.ts).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { lazyMime } from './lazy-mime.js';
import { LAZY_FUNCTIONS, lazyFunction } from './lazy-function.js';
import { BUNDLE_EXTERNALS } from './bundle-externals.js';
import { removeChunks, unmapHelperChunks } from './bundle-chunks.js';

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

removeChunks(root('dist'), 'index', '.js');
await build({
  entryPoints: { index: root('src/index.ts') },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: BUNDLE_EXTERNALS,
  // Bundled CommonJS modules call require: give each ES module file one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
  outdir: root('dist'),
  // Beside index.js, so paths a chunk finds from its own URL (fixtures, the demo state, the inspector) are the same.
  chunkNames: 'index-[name]-[hash]',
  plugins: [lazyMime(), lazyFunction(LAZY_FUNCTIONS)],
});
unmapHelperChunks(root('dist'), 'index', '.js');
