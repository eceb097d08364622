// Build step: the package bundle dist/index.js (everything but pg, swagger-ui-dist and @mswjs/interceptors), with
// mime-types loaded on first use (scripts/lazy-mime.ts) so importing the package stays cheap.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { lazyMime } from './lazy-mime.js';
import { BUNDLE_EXTERNALS } from './bundle-externals.js';

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

await build({
  entryPoints: [root('src/index.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: BUNDLE_EXTERNALS,
  // Bundled CommonJS modules call require: give the ES module one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
  outfile: root('dist/index.js'),
  plugins: [lazyMime()],
});
