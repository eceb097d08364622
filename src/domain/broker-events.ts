// Endpoint 19: verifies the broker's HMAC over the exact raw bytes, then reconciles one connection lifecycle event.
import { createHmac } from 'node:crypto';
import * as v from 'valibot';
import type { WriteDeps } from './write-deps.js';
import { ApiError } from '../errors.js';
import { FreeObject, NonEmptyString, Timestamp, Uuid, model } from '../schemas/index.js';
import type { RecordOf } from '../schemas/index.js';
import { parse } from '../validation.js';
import { secretEquals } from './auth.js';
import { noteRetainedInserts } from './retention.js';

const BROKER_EVENT_TYPES = ['connection.authorized', 'connection.refreshed', 'connection.error', 'connection.revoked'] as const;

export const BrokerEventSchema = model({
  event_id: NonEmptyString,
  event_type: v.picklist(BROKER_EVENT_TYPES),
  connection_resource_id: Uuid,
  occurred_at: Timestamp,
  operation_id: v.optional(v.nullable(Uuid)),
  health: v.optional(v.nullable(FreeObject)),
});
export type BrokerEvent = v.InferOutput<typeof BrokerEventSchema>;

export interface BrokerCallbackResult {
  accepted: true;
  stored: boolean;
}

/** Lowercase hex HMAC-SHA256 of the bytes exactly as received. */
export function brokerSignature(raw: Buffer, secret: string): string {
  return createHmac('sha256', secret).update(raw).digest('hex');
}

/** 401 `broker_signature_invalid` unless the header equals the HMAC (no secret configured: nothing verifies). */
export function verifyBrokerSignature(raw: Buffer, header: string | undefined, secret: string | null): void {
  const expected = secret ? brokerSignature(raw, secret) : '';
  // Always compare, so a missing header or secret costs the same as a wrong one.
  const ok = secretEquals(header ?? '', expected) && !!secret && header !== undefined;
  if (!ok) throw new ApiError('broker_signature_invalid');
}

/** Validates the event (the route decoded the verified bytes like any JSON body). */
export function parseBrokerEvent(json: unknown): BrokerEvent {
  return parse(BrokerEventSchema, json, 'body');
}

/** The connection fields an event changes; `now` is the mock clock. */
function applyEvent(c: RecordOf<'connections'>, e: BrokerEvent, now: string): RecordOf<'connections'> {
  const next: RecordOf<'connections'> = { ...c, updated_at: now };
  switch (e.event_type) {
    case 'connection.authorized':
      next.status = 'active';
      next.provider_reconciliation_required = false;
      next.provider_reconciliation_cleared_at = now;
      break;
    case 'connection.refreshed':
      // The provider verified the credential when the event occurred, not when we received it.
      next.last_verified_at = new Date(Date.parse(e.occurred_at)).toISOString();
      break;
    case 'connection.error':
      next.status = 'error';
      next.provider_reconciliation_required = true;
      next.provider_reconciliation_operation_id = e.operation_id ?? c.provider_reconciliation_operation_id;
      break;
    case 'connection.revoked':
      next.status = 'revoked';
      next.provider_reconciliation_required = true;
      next.provider_reconciliation_operation_id = e.operation_id ?? c.provider_reconciliation_operation_id;
      break;
  }
  if (e.health) next.health = { ...c.health, ...e.health };
  return next;
}

/** Applies one verified event in one transaction; repeats and unknown (or archived) connections change nothing. */
export async function reconcileBrokerEvent(deps: WriteDeps, event: BrokerEvent): Promise<BrokerCallbackResult> {
  const result = await deps.store.transact((tx): BrokerCallbackResult => {
    if (tx.get('broker_events', event.event_id)) return { accepted: true, stored: false };
    // An archived project is read-only: its connections are treated like unknown ones (accepted,
    // not stored), so the broker stops retrying and nothing changes.
    const targets = tx.where(
      'connections',
      'connection_resource_id',
      event.connection_resource_id,
      (c) => tx.get('projects', c.project_id)?.status !== 'archived',
    );
    if (targets.length === 0) return { accepted: true, stored: false };
    const now = tx.now();
    for (const c of targets) tx.put('connections', applyEvent(c, event, now));
    tx.put('broker_events', { event_id: event.event_id, connection_resource_id: event.connection_resource_id, event_type: event.event_type, received_at: now });
    return { accepted: true, stored: true };
  });
  if (result.stored) await noteRetainedInserts(deps, 1);
  return result;
}
