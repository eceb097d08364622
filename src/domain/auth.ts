// Who is calling and what they may do: bearer tokens, the admin key, roles and scopes (docs/api.md#authentication).
import { timingSafeEqual, createHash } from 'node:crypto';
import { ApiError } from '../errors.js';
import { authorizationOf } from '../bearer.js';
import type { RecordReader } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';

export const LEVELS = { viewer: 1, operator: 2, owner: 3 } as const;
export type LevelName = keyof typeof LEVELS;
const SCOPE_LEVELS: Record<string, number> = { 'project:read': 1, 'project:write': 2, 'project:admin': 3 };

export interface Actor {
  kind: 'principal' | 'admin' | 'auth-off';
  principal_id: string | null;
  /** Effective level in a workspace: 0 means no role there (its projects are invisible). */
  levelIn(workspaceId: string): number;
  /**
   * The same caller as `reader` now sees it (a write's transaction): its token and role as stored there, so that a
   * write never acts on authority that was revoked, narrowed or moved away meanwhile. 401 `token_invalid` when gone.
   */
  reread(reader: Pick<RecordReader, 'get'>): Actor;
}

const ALL_POWERFUL = (kind: Actor['kind']): Actor => {
  const actor: Actor = { kind, principal_id: null, levelIn: () => LEVELS.owner, reread: () => actor };
  return actor;
};

/** Compares secrets in constant time (hashing first so lengths never leak through timing). */
export function secretEquals(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export interface AuthInput {
  authorization?: string;
  adminKey?: string;
  /** Whether this endpoint accepts X-Admin-Key (endpoints 2, 3, 13, 18, 20). */
  adminKeyAccepted: boolean;
}

export interface AuthConfig {
  mode: 'on' | 'off';
  adminKey: string | null;
  nowMs: number;
}

/** Resolves the caller or throws the 401 of the contract. */
export function authenticate(store: Pick<RecordReader, 'get'>, input: AuthInput, config: AuthConfig): Actor {
  if (config.mode === 'off') return ALL_POWERFUL('auth-off');
  if (input.adminKeyAccepted && input.adminKey !== undefined) {
    if (config.adminKey && secretEquals(input.adminKey, config.adminKey)) return ALL_POWERFUL('admin');
    throw new ApiError('admin_key_invalid');
  }
  const bearer = input.authorization === undefined ? null : authorizationOf(input.authorization).token;
  if (!bearer) throw new ApiError('authentication_required');
  const token = store.get('access_tokens', bearer);
  if (!token || token.revoked) throw new ApiError('token_invalid');
  const known = actors.get(token);
  if ((known?.expiresMs ?? Date.parse(token.expires_at)) <= config.nowMs) throw new ApiError('token_expired');
  const principal = store.get('principals', token.principal_id);
  if (!principal) throw new ApiError('token_invalid');
  if (known?.principal === principal && known.bearer === bearer) return known.actor;
  const actor = principalActor(principal, token.scopes, (reader) => {
    const now = reader.get('access_tokens', bearer);
    const who = now && !now.revoked ? reader.get('principals', now.principal_id) : undefined;
    if (!now || !who) throw new ApiError('token_invalid');
    return [who, now.scopes];
  });
  actors.set(token, { principal, bearer, actor, expiresMs: Date.parse(token.expires_at) });
  return actor;
}

/**
 * The actor made for a stored token, kept while that token record lives. Records are immutable (a write replaces the
 * object), and an actor is a function of its token's scopes, its principal record and the bearer text alone, so the
 * same three give the same actor: a client that sends one token on every request is authenticated without making
 * one each time. Revocation, expiry (against the request's clock) and the principal are still checked every time.
 */
const actors = new WeakMap<RecordOf<'access_tokens'>, { principal: RecordOf<'principals'>; bearer: string; actor: Actor; expiresMs: number }>();

/** `again` reads the principal and scopes anew (see Actor.reread); without it the actor stands as given. */
/** The principal id behind an `Authorization: Bearer` token as stored (whatever its expiry), or null: what faults match on. */
export function principalOf(store: Pick<RecordReader, 'get'>, authorization: string | undefined): string | null {
  const bearer = authorization === undefined ? null : authorizationOf(authorization).token;
  return (bearer && store.get('access_tokens', bearer)?.principal_id) || null;
}

function principalActor(
  principal: RecordOf<'principals'>,
  scopes: string[],
  again?: (reader: Pick<RecordReader, 'get'>) => [RecordOf<'principals'>, string[]],
): Actor {
  const scopeLevel = Math.max(0, ...scopes.map((s) => SCOPE_LEVELS[s] ?? 0));
  const actor: Actor = {
    kind: 'principal',
    principal_id: principal.id,
    reread(reader) {
      if (!again) return actor;
      const [p, s] = again(reader);
      return p === principal && s === scopes ? actor : principalActor(p, s, again);
    },
    levelIn(workspaceId) {
      const role = principal.memberships.find((m) => m.workspace_id === workspaceId)?.role;
      if (!role) return 0;
      // Scope can narrow a role but a token without project scopes still sees the project (403, not 404).
      return Math.max(Math.min(LEVELS[role], scopeLevel), 0.5);
    },
  };
  return actor;
}

/** The project if the actor may see it and has `needed` authority; else 404 or 403. */
export function authorizeProject(actor: Actor, project: RecordOf<'projects'> | undefined, needed: LevelName): RecordOf<'projects'> {
  const level = project ? actor.levelIn(project.workspace_id) : 0;
  if (!project || level === 0) throw new ApiError('project_not_found');
  if (level < LEVELS[needed]) throw new ApiError('insufficient_authority', { message: `This operation needs ${needed} authority on the project.` });
  return project;
}
