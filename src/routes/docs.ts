// GET /openapi.json (the generated OpenAPI 3.1 document) and GET /docs (Swagger UI from the installed
// swagger-ui-dist package, no CDN). Always served, also with control off; no credentials.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from '../pipeline/index.js';
import * as v from 'valibot';
import { ApiError } from '../errors.js';
import { endpoint, Reply, type ReadBody } from '../pipeline/index.js';
import { pathPrefixOf } from '../pipeline/index.js';

/** Where swagger-ui-dist is installed; resolved on the first /docs request, not at start-up. */
let swaggerDirCache: string | undefined;
const require = createRequire(import.meta.url);
const swaggerDir = () => (swaggerDirCache ??= dirname(require.resolve('swagger-ui-dist/package.json')));

/** The only files of swagger-ui-dist the page needs, with their media types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** The page, its assets and the document it loads under `prefix` (a sandbox reached by its path prefix; '' otherwise). */
const page = (prefix: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>project-runtime-mock: API docs</title>
    <link rel="stylesheet" href="${prefix}/docs/swagger-ui.css">
    <link rel="stylesheet" href="${prefix}/docs/index.css">
    <link rel="icon" type="image/png" href="${prefix}/docs/favicon-32x32.png" sizes="32x32">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${prefix}/docs/swagger-ui-bundle.js" charset="utf-8"></script>
    <script src="${prefix}/docs/swagger-ui-standalone-preset.js" charset="utf-8"></script>
    <script src="${prefix}/docs/swagger-initializer.js" charset="utf-8"></script>
  </body>
</html>
`;

/** validatorUrl null: the page never calls validator.swagger.io (closed networks, no third parties). */
const initializer = (prefix: string) => `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '${prefix}/openapi.json',
    dom_id: '#swagger-ui',
    validatorUrl: null,
    deepLinking: true,
    displayOperationId: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

const cache = new Map<string, Buffer>();
async function asset(name: string): Promise<Buffer> {
  let data = cache.get(name);
  if (!data) {
    data = await readFile(join(swaggerDir(), name));
    cache.set(name, data);
  }
  return data;
}

const AssetPath = v.object({ asset: v.string() });

export function docsRoutes(readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/openapi.json',
    endpoint(readBody, { operation: 'getOpenApiDocument', level: 'public' }, async ({ ctx, deps }) => {
      const doc = (await import('../document/index.js')).openApiDocument(deps.config.control, deps.config.controlTokenRequired);
      // A sandbox reached by its path prefix: "try it out" sends its requests there.
      const prefix = pathPrefixOf(ctx.req);
      return prefix ? { ...doc, servers: [{ url: prefix }] } : doc;
    }),
  );
  router.get(
    '/docs',
    endpoint(
      readBody,
      { operation: 'getDocsPage', level: 'public' },
      ({ ctx }) => new Reply(200, page(pathPrefixOf(ctx.req)), { 'Content-Type': 'text/html; charset=utf-8' }),
    ),
  );
  router.get(
    '/docs/:asset',
    endpoint(readBody, { operation: 'getDocsAsset', level: 'public', path: AssetPath }, async ({ path, ctx }) => {
      if (path.asset === 'swagger-initializer.js')
        return new Reply(200, initializer(pathPrefixOf(ctx.req)), { 'Content-Type': 'text/javascript; charset=utf-8' });
      const type = Object.hasOwn(ASSETS, path.asset) ? ASSETS[path.asset] : undefined;
      if (!type) throw new ApiError('route_not_found');
      return new Reply(200, await asset(path.asset), { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
    }),
  );
  return router;
}
