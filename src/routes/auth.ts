// Endpoint 1: the token endpoint (public: the grant itself is the credential).
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { exchangeToken } from '../domain/tokens.js';
import { TokenRequestSchema } from '../schemas/auth.js';
import { endpoint, Reply, type ReadBody } from './endpoint.js';

/** RFC 6749 5.1: token responses must not be cached by anything in between. */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function authRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();
  router.post(
    '/api/v3/auth/token',
    endpoint(deps, readBody, { operation: 'exchangeToken', level: 'public', body: TokenRequestSchema, bodyRequired: true }, async ({ body, ctx }) => {
      return new Reply(200, await exchangeToken(deps, body, (ctx.request as { body?: unknown }).body), NO_STORE);
    }),
  );
  return router;
}
