// For the suites of a sandbox create refused after its mock was built: the create body, its 422, and how many sandboxes the metrics count.
import type { MockApp } from '../../src/app.js';
import { parsePrometheus, series } from './prometheus.js';

/** A create whose simulation names a connection binding the state does not hold: refused once its mock is built. */
export const UNKNOWN_BINDING_CREATE = { simulation: { traffic: [{ binding_id: '00000000-0000-4000-8000-000000000000', messages_per_hour: 1 }] } };

/** The 422 that create answers. */
export const UNKNOWN_BINDING_422 = {
  detail: [
    {
      type: 'value_error',
      loc: ['body', 'simulation', 'traffic', 0, 'binding_id'],
      msg: 'Value error, unknown connection binding',
      input: null,
      ctx: { error: {} },
    },
  ],
};

/** Sandboxes open now and opened in all, as GET /_mock/metrics counts them (read in process: not in /openapi.json). */
export async function sandboxesOpened(app: MockApp): Promise<[Record<string, number>, Record<string, number>]> {
  const f = parsePrometheus(await (await app.fetch('/_mock/metrics')).text());
  return [series(f, 'prm_sandboxes_live'), series(f, 'prm_sandboxes_created_total')];
}
