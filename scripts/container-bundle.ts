// The container image's command: the CLI as one CommonJS file with its dependencies inside (dist/cli.cjs in the
// image), so a container's start reads one file instead of resolving ~30 packages in node_modules, and loads
// prom-client (at the first scrape of /_mock/metrics) and mime-db (at the first lookup beyond koa's few types) lazily.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { BUNDLE_EXTERNALS } from './bundle-externals.js';
import { lazyMime } from './lazy-mime.js';
import { LAZY_FUNCTIONS, lazyFunction } from './lazy-function.js';
import { lazyRequire } from './lazy-require.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Bundles src/cli.ts into `outfile`, which must sit in the package's dist/ (it finds fixtures and the inspector beside it). */
export async function bundleCli(outfile: string): Promise<void> {
  await build({
    entryPoints: [`${ROOT}src/cli.ts`],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The packages the package bundles load from node_modules stay there (pg, the UI's files, prom-client, interceptors).
    external: BUNDLE_EXTERNALS,
    banner: { js: 'const __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': '__import_meta_url' },
    logLevel: 'warning',
    outfile,
    plugins: [lazyMime(), lazyFunction(LAZY_FUNCTIONS), lazyRequire(false)],
  });
}
