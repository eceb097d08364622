// GET /_mock/ui: the inspector page and its built files (src/inspector), mounted with the rest of the control surface.
import { Router } from '../pipeline/index.js';
import * as v from 'valibot';
import { ApiError } from '../errors.js';
import { INSPECTOR_PATH, inspectorFiles } from '../inspector/index.js';
import { endpoint, Reply, type ReadBody } from '../pipeline/index.js';

const AssetPath = v.object({ asset: v.string() });

export function controlUiRoutes(readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    INSPECTOR_PATH,
    endpoint(readBody, { operation: 'controlInspectorPage', level: 'public' }, async () => {
      const { INSPECTOR_HEADERS, INSPECTOR_HTML } = await inspectorFiles();
      return new Reply(200, INSPECTOR_HTML, { ...INSPECTOR_HEADERS, 'Content-Type': 'text/html; charset=utf-8' });
    }),
  );
  router.get(
    `${INSPECTOR_PATH}/:asset`,
    endpoint(readBody, { operation: 'controlInspectorAsset', level: 'public', path: AssetPath }, async ({ path }) => {
      const { INSPECTOR_ASSETS, INSPECTOR_HEADERS, inspectorAsset } = await inspectorFiles();
      const data = await inspectorAsset(path.asset);
      if (!data) {
        const built = Object.hasOwn(INSPECTOR_ASSETS, path.asset);
        throw new ApiError(
          'route_not_found',
          built ? { message: `The inspector page is not built (dist/inspector/${path.asset} is missing): run npm run build.` } : {},
        );
      }
      return new Reply(200, data, { ...INSPECTOR_HEADERS, 'Content-Type': INSPECTOR_ASSETS[path.asset] });
    }),
  );
  return router;
}
