// Connection bindings: the observed provider state (endpoint 2), and the stored record with its secret.
import * as v from 'valibot';
import { Bool, FreeObject, Timestamp, Uuid, model, nullish } from './common.js';

const ConnectionStatus = v.picklist(['pending', 'active', 'error', 'revoked']);

export const ConnectionBindingResponseSchema = model({
  id: Uuid,
  connection_name: v.string(),
  connection_resource_id: Uuid,
  kind: v.string(),
  status: ConnectionStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
  configuration: v.optional(FreeObject, {}),
  credential_binding_id: nullish(Uuid),
  external_identifiers: v.optional(FreeObject, {}),
  health: v.optional(FreeObject, {}),
  last_verified_at: nullish(Timestamp),
  observed_fingerprint: nullish(v.string()),
  provider_reconciliation_cleared_at: nullish(Timestamp),
  provider_reconciliation_operation_id: nullish(Uuid),
  provider_reconciliation_required: v.optional(Bool, false),
});

export const ConnectionRecordSchema = model({
  ...ConnectionBindingResponseSchema.entries,
  project_id: Uuid,
  webhook_secret: nullish(v.string()),
});
