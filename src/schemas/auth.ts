// Workspaces, principals, tokens and authorization codes; the token endpoint's request and response (endpoint 1).
import * as v from 'valibot';
import { Bool, Timestamp, Uuid, model } from './common.js';

const Role = v.picklist(['viewer', 'operator', 'owner']);
type Role = v.InferOutput<typeof Role>;
const Scope = v.string();

export const WorkspaceRecordSchema = model({ id: Uuid, name: v.string() });
export const PrincipalRecordSchema = model({
  id: Uuid,
  display_name: v.optional(v.string(), ''),
  memberships: v.optional(v.array(model({ workspace_id: Uuid, role: Role })), []),
});

export const AccessTokenRecordSchema = model({
  token: v.pipe(v.string(), v.minLength(1)),
  principal_id: Uuid,
  scopes: v.array(Scope),
  expires_at: Timestamp,
  family_id: v.optional(v.nullable(v.string()), null),
  revoked: v.optional(Bool, false),
});

export const RefreshTokenRecordSchema = model({
  token: v.string(),
  principal_id: Uuid,
  scopes: v.array(Scope),
  family_id: v.string(),
  expires_at: Timestamp,
  used: v.optional(Bool, false),
  revoked: v.optional(Bool, false),
});

export const AuthorizationCodeRecordSchema = model({
  code: v.pipe(v.string(), v.minLength(1)),
  principal_id: Uuid,
  code_challenge: v.string(),
  scopes: v.array(Scope),
  expires_at: Timestamp,
  used: v.optional(Bool, false),
  family_id: v.optional(v.nullable(v.string()), null),
});

export const TokenRequestSchema = model({
  grant_type: v.picklist(['authorization_code', 'refresh_token']),
  code: v.optional(v.string()),
  code_verifier: v.optional(v.string()),
  refresh_token: v.optional(v.string()),
});

export const TokenResponseSchema = model({
  access_token: v.string(),
  refresh_token: v.string(),
  expires_at: Timestamp,
  scopes: v.array(v.string()),
  token_type: v.literal('Bearer'),
});
