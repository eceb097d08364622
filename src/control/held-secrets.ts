// The credentials the mock holds (tokens, codes, verifiers by their challenge, keys, webhook secrets), as the index the journal redacts with.
import type { Deps } from '../deps.js';
import { PKCE_VERIFIER, pkceS256 } from '../domain/index.js';
import { brokerSignature } from '../domain/index.js';
import type { SecretIndex } from './redact.js';

/**
 * For each journal read, an index of the credentials held then: access and refresh tokens and authorization codes
 * by their key (a lookup per word), PKCE verifiers by the S256 challenge of a code, webhook secrets, and the
 * configured keys (`extra`: the control token) by substring, and the broker signature of each request body. A credential the mock has forgotten (retention) is
 * no longer one, and is no longer looked for.
 */
export function heldSecrets(deps: Deps, extra: readonly (string | undefined)[] = []): () => SecretIndex {
  return () => {
    const { store } = deps;
    let webhooks: Set<string> | undefined;
    let challenges: Set<string> | undefined;
    const fixed = [deps.config.adminKey(), deps.config.brokerSecret(), ...extra].filter((s): s is string => typeof s === 'string' && s !== '');
    const broker = deps.config.brokerSecret();
    return {
      fixed,
      signature: (body: string) => (broker ? brokerSignature(Buffer.from(body), broker) : undefined),
      has(word: string): boolean {
        if (store.has('access_tokens', word) || store.has('refresh_tokens', word) || store.has('authorization_codes', word)) return true;
        webhooks ??= new Set(Array.from(store.values('connections'), (c) => c.webhook_secret).filter((s): s is string => typeof s === 'string' && s !== ''));
        if (webhooks.has(word)) return true;
        if (!PKCE_VERIFIER.test(word)) return false;
        challenges ??= new Set(Array.from(store.values('authorization_codes'), (c) => c.code_challenge));
        return challenges.has(pkceS256(word));
      },
    };
  };
}
