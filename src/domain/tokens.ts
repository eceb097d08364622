// Endpoint 1 and code minting: PKCE S256 code exchange, rotating refresh tokens with family revocation (docs/auth-and-webhooks.md).
import { createHash } from 'node:crypto';
import type { WriteDeps } from './write-deps.js';
import { ApiError, ValidationError, invalid, type ValidationItem } from '../errors.js';
import type { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import { secretEquals } from './auth.js';
import { noteRetainedInserts } from './retention.js';
import { msAfter } from './clock.js';

/** Access tokens live one hour by the mock clock: long enough for a test, short enough to test expiry. */
export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;
/** Refresh tokens live 30 days from their own issue (each rotation starts a new 30 days). */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Authorization codes minted without an explicit lifetime expire after 10 minutes (RFC 6749 4.1.2 advice). */
export const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000;
/** Scopes of a minted code when none are given: the installer case, full project authority. */
const DEFAULT_CODE_SCOPES = ['project:admin'];

export interface TokenRequest {
  grant_type: 'authorization_code' | 'refresh_token';
  code?: string;
  code_verifier?: string;
  refresh_token?: string;
}

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_at: string;
  scopes: string[];
  token_type: 'Bearer';
}

/** The S256 challenge of a verifier: base64url (no padding) of the SHA-256 of its UTF-8 bytes (RFC 7636 4.2). */
export function pkceS256(verifier: string): string {
  // 'ascii' would drop the high byte of each character, so `š` (U+0161) hashed as `a`.
  return createHash('sha256').update(verifier, 'utf8').digest('base64url');
}

/** RFC 7636 4.1: 43 to 128 unreserved characters. Anything else can never be a verifier. */
export const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

const isoAt = (ms: number) => new Date(ms).toISOString();
const invalidGrant = (message: string) => new ApiError('invalid_grant', { message });

/** Which fields each grant needs: absent ones are a 422, listed together, before any grant check. */
const NEEDED: Record<TokenRequest['grant_type'], (keyof TokenRequest)[]> = {
  authorization_code: ['code', 'code_verifier'],
  refresh_token: ['refresh_token'],
};

function requireFields(req: TokenRequest, received: unknown): void {
  // pydantic's input for a missing field is the object it is missing from.
  const items: ValidationItem[] = NEEDED[req.grant_type]
    .filter((f) => req[f] === undefined)
    .map((f) => ({ loc: ['body', f], msg: 'Field required', type: 'missing', input: received }));
  if (items.length) throw new ValidationError(items);
}

/** Marks every access and refresh token of a family revoked (records are immutable: new objects). */
function revokeFamily(tx: Transaction, familyId: string | null | undefined): void {
  if (!familyId) return;
  for (const t of tx.where('access_tokens', 'family_id', familyId, (r) => !r.revoked)) tx.put('access_tokens', { ...t, revoked: true });
  for (const t of tx.where('refresh_tokens', 'family_id', familyId, (r) => !r.revoked)) tx.put('refresh_tokens', { ...t, revoked: true });
}

/** Issues one access and one refresh token in `familyId`. */
function issuePair(deps: WriteDeps, tx: Transaction, principalId: string, scopes: string[], familyId: string, nowMs: number): TokenResponse {
  const access: RecordOf<'access_tokens'> = {
    token: deps.tokens(32),
    principal_id: principalId,
    scopes: [...scopes],
    expires_at: isoAt(nowMs + ACCESS_TOKEN_TTL_MS),
    family_id: familyId,
    revoked: false,
  };
  const refresh: RecordOf<'refresh_tokens'> = {
    token: deps.tokens(48),
    principal_id: principalId,
    scopes: [...scopes],
    family_id: familyId,
    expires_at: isoAt(nowMs + REFRESH_TOKEN_TTL_MS),
    used: false,
    revoked: false,
  };
  tx.put('access_tokens', access);
  tx.put('refresh_tokens', refresh);
  return { access_token: access.token, refresh_token: refresh.token, expires_at: access.expires_at, scopes: [...scopes], token_type: 'Bearer' };
}

/**
 * A grant outcome decided inside the transaction. Revocation on reuse must be stored even though
 * the answer is an error, so the transaction returns the failure instead of throwing (a throw
 * would discard the revocation).
 */
type Outcome = { ok: TokenResponse } | { fail: string };

function exchangeCode(deps: WriteDeps, tx: Transaction, code: string, verifier: string, nowMs: number): Outcome {
  const rec = tx.get('authorization_codes', code);
  if (!rec) return { fail: 'The authorization code is unknown.' };
  if (rec.used) {
    // RFC 6749 4.1.2: a code presented twice is treated as stolen; what it issued is revoked.
    revokeFamily(tx, rec.family_id);
    return { fail: 'The authorization code was already used; the tokens issued from it are revoked.' };
  }
  if (Date.parse(rec.expires_at) <= nowMs) return { fail: 'The authorization code has expired.' };
  if (!PKCE_VERIFIER.test(verifier)) return { fail: 'The code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636).' };
  if (!secretEquals(pkceS256(verifier), rec.code_challenge)) return { fail: 'The code_verifier does not match the code challenge (PKCE S256).' };
  if (!tx.get('principals', rec.principal_id)) return { fail: 'The principal of this code no longer exists.' };
  const familyId = deps.ids();
  tx.put('authorization_codes', { ...rec, used: true, family_id: familyId });
  return { ok: issuePair(deps, tx, rec.principal_id, rec.scopes, familyId, nowMs) };
}

function rotateRefresh(deps: WriteDeps, tx: Transaction, token: string, nowMs: number): Outcome {
  const rec = tx.get('refresh_tokens', token);
  if (!rec) return { fail: 'The refresh token is unknown.' };
  if (rec.revoked) return { fail: 'The refresh token has been revoked.' };
  if (rec.used) {
    // A rotated-out token coming back means two parties hold the family: end it for both.
    revokeFamily(tx, rec.family_id);
    return { fail: 'The refresh token was already used; its token family is revoked.' };
  }
  if (Date.parse(rec.expires_at) <= nowMs) return { fail: 'The refresh token has expired.' };
  if (!tx.get('principals', rec.principal_id)) return { fail: 'The principal of this token no longer exists.' };
  tx.put('refresh_tokens', { ...rec, used: true });
  return { ok: issuePair(deps, tx, rec.principal_id, rec.scopes, rec.family_id, nowMs) };
}

/** Endpoint 1: runs the grant in one transaction; any failure is 400 `invalid_grant`. */
/** `received` is the body as it arrived (for the `input` of a missing-field item); the parsed request by default. */
export async function exchangeToken(deps: WriteDeps, req: TokenRequest, received: unknown = req): Promise<TokenResponse> {
  requireFields(req, received);
  const outcome = await deps.store.transact((tx) =>
    req.grant_type === 'authorization_code'
      ? exchangeCode(deps, tx, req.code!, req.code_verifier!, tx.nowMs())
      : rotateRefresh(deps, tx, req.refresh_token!, tx.nowMs()),
  );
  if ('fail' in outcome) throw invalidGrant(outcome.fail);
  await noteRetainedInserts(deps, 2);
  return outcome.ok;
}

export interface MintCodeInput {
  principal_id: string;
  code_challenge: string;
  scopes?: string[];
  expires_in_ms?: number;
  /** A chosen code string; minting an existing code replaces it with a fresh, unused one. */
  code?: string;
}

export interface MintedCode {
  code: string;
  principal_id: string;
  scopes: string[];
  expires_at: string;
}

/** Stores a new authorization code for a principal and PKCE challenge (what POST /_mock/auth/codes does). */
export async function mintAuthorizationCode(deps: WriteDeps, input: MintCodeInput): Promise<MintedCode> {
  if (typeof input.code_challenge !== 'string' || input.code_challenge === '') {
    throw invalid(['body', 'code_challenge'], 'Field required', 'missing', input.code_challenge ?? null);
  }
  if (input.code !== undefined && input.code === '') throw invalid(['body', 'code'], '', 'string_too_short', '', { min_length: 1 });
  const ttl = input.expires_in_ms ?? AUTHORIZATION_CODE_TTL_MS;
  if (!Number.isSafeInteger(ttl) || ttl < 0) throw invalid(['body', 'expires_in_ms'], '', 'greater_than_equal', ttl, { ge: 0 });
  const code = input.code ?? deps.tokens(32);
  const scopes = [...(input.scopes ?? DEFAULT_CODE_SCOPES)];
  const expires_at = await deps.store.transact((tx) => {
    const expires_at = isoAt(msAfter(tx.nowMs(), ttl, ['body', 'expires_in_ms']));
    if (!tx.get('principals', input.principal_id)) throw new ApiError('principal_not_found', { affected_resource: `principal:${input.principal_id}` });
    tx.put('authorization_codes', {
      code,
      principal_id: input.principal_id,
      code_challenge: input.code_challenge,
      scopes,
      expires_at,
      used: false,
      family_id: null,
    });
    return expires_at;
  });
  await noteRetainedInserts(deps, 1);
  return { code, principal_id: input.principal_id, scopes: [...scopes], expires_at };
}
