// Build step: the package bundle dist/index.js (everything but pg, swagger-ui-dist, @mswjs/interceptors and prom-client),
// split: what a first mock uses is in index.js and the chunks it imports; what only some mocks use (shadow mode,
// reproduction, the OpenAPI document, the inspector, the metrics exposition) is in chunks of its own (dist/index-*.js),
// loaded by import() at first use. mime-types and http-assert load on first use too (scripts/lazy-mime.ts, lazy-function.ts),
// and koa from dist/koa.cjs (scripts/lazy-require.ts).
import { fileURLToPath } from 'node:url';
import { BUNDLE_EXTERNALS } from './bundle-externals.js';
import { splitEsm } from './bundle-chunks.js';
import { bundleLazyRequires } from './lazy-require.js';

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

await splitEsm(root('src/index.ts'), root('dist'), 'index', BUNDLE_EXTERNALS);
// Koa, required by every split bundle in dist/ (the package's and the CLI's) at its first use.
await bundleLazyRequires(root('dist'));
