// Build step: the host command line, dist/cli.js, split as the package bundle is (dist/cli-<name>-<hash>.js chunks load
// at first use), with koa and its helpers inside and mime-types deferred (scripts/lazy-mime.ts), so a server's start
// reads neither the MIME table nor prom-client: the table at the first response that needs it, prom-client at the
// first scrape of /_mock/metrics. The libraries the CLI shares with the package stay in node_modules.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { lazyMime } from './lazy-mime.js';
import { LAZY_FUNCTIONS, lazyFunction } from './lazy-function.js';
import { removeChunks, unmapHelperChunks } from './bundle-chunks.js';
import { CLI_EXTERNALS } from './bundle-externals.js';

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

removeChunks(root('dist'), 'cli', '.js');
await build({
  entryPoints: { cli: root('src/cli.ts') },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: CLI_EXTERNALS,
  // Bundled CommonJS modules (koa and its helpers) call require: give each ES module file one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
  outdir: root('dist'),
  chunkNames: 'cli-[name]-[hash]',
  plugins: [lazyMime(), lazyFunction(LAZY_FUNCTIONS)],
});
unmapHelperChunks(root('dist'), 'cli', '.js');
