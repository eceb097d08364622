// POST /_mock/verify, /_mock/verify/sequence and /_mock/verify/only: 200 when the journal satisfies them, else 417.
import { Router } from './route-list.js';
import * as v from 'valibot';
import type { VerificationKind } from '../control/verify/index.js';
import { endpoint, Reply, type ReadBody } from './endpoint.js';

const AnyBody = v.unknown();

const ROUTES: [string, string, VerificationKind][] = [
  ['/_mock/verify', 'controlVerify', 'verify'],
  ['/_mock/verify/sequence', 'controlVerifySequence', 'verifySequence'],
  ['/_mock/verify/only', 'controlVerifyOnly', 'verifyOnly'],
];

export function controlVerifyRoutes(readBody: ReadBody): Router {
  const router = new Router();
  for (const [path, operation, kind] of ROUTES) {
    router.post(
      path,
      // The body is validated by the verifier (the same check in process), so its 422 items are the same.
      endpoint(readBody, { operation, level: 'public', body: AnyBody, bodyRequired: true }, ({ body, control }) => {
        const outcome = control.verifier.check(kind, body);
        return outcome.ok ? outcome.answer : new Reply(417, outcome.failure);
      }),
    );
  }
  return router;
}
