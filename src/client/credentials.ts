// Which credential headers a request carries: each operation's accepted security schemes (from the document) decide.
import type { Middleware } from 'openapi-fetch';
import { SECURITY } from './generated.js';

export interface Credentials {
  /** An access token (POST /api/v3/auth/token, or one seeded by fixtures): `Authorization: Bearer` where accepted. */
  token?: string;
  /** The admin key: `X-Admin-Key` on the operations that accept it (endpoints 2, 3, 13, 18 and 20). */
  adminKey?: string;
  /** The mock's control token: `X-Mock-Control-Token` on /_mock routes. Not part of v3. */
  controlToken?: string;
}

/** The headers each security scheme of the document is sent as, given the credentials at hand. */
function headersFor(scheme: string, c: Credentials): Record<string, string> | undefined {
  if (scheme === 'bearerAuth' && c.token !== undefined) return { Authorization: `Bearer ${c.token}` };
  if (scheme === 'adminKey' && c.adminKey !== undefined) return { 'X-Admin-Key': c.adminKey };
  if (scheme === 'controlToken' && c.controlToken !== undefined) return { 'X-Mock-Control-Token': c.controlToken };
  return undefined;
}

/**
 * Adds the credentials an operation accepts, and only those: a token never goes to the webhooks or the token
 * exchange, an admin key only where the contract takes one. A header the caller set on the request wins.
 */
export function credentialsMiddleware(credentials: Credentials): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const schemes = SECURITY[`${request.method} ${schemaPath}`] ?? [];
      for (const scheme of schemes) {
        for (const [name, value] of Object.entries(headersFor(scheme, credentials) ?? {})) {
          if (!request.headers.has(name)) request.headers.set(name, value);
        }
      }
      return request;
    },
  };
}
