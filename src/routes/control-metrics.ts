// GET /_mock/metrics: the server's metrics in the Prometheus text format, mounted with the rest of the control surface.
import { Router } from '../pipeline/index.js';
import { METRICS_CONTENT_TYPE, type ServerMetrics } from '../metrics/index.js';
import { endpoint, Reply, type ReadBody } from '../pipeline/index.js';

/** The path Prometheus scrapes (it passes the control guard as every /_mock path does: Host, Origin, token). */
const METRICS_PATH = '/_mock/metrics';

/** Serves the whole server's figures (the default mock and every sandbox, by scope), whichever mock the request addresses. */
export function controlMetricsRoutes(metrics: ServerMetrics): (readBody: ReadBody) => Router {
  return (readBody) =>
    new Router().get(
      METRICS_PATH,
      endpoint(
        readBody,
        { operation: 'controlMetrics', level: 'public' },
        async () => new Reply(200, await metrics.text(), { 'Content-Type': METRICS_CONTENT_TYPE }),
      ),
    );
}
