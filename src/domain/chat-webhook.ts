// Endpoint 16: verifies a binding's webhook secret and turns one chat update into an app user and a queued live run.
import * as v from 'valibot';
import { Int, NonEmptyString, model } from '../schemas/common.js';
import { union } from '../pydantic/index.js';
import type { WriteDeps } from './write-deps.js';
import { ApiError } from '../errors.js';
import type { RecordReader, Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/state.js';
import { secretEquals } from './auth.js';
import { writableProject } from './write-guard.js';
import { noteRetainedInserts } from './retention.js';

/** The chat platform's update; only the fields the mock acts on are read, the rest is ignored. */
export const ChatUpdateSchema = model({
  update_id: Int,
  message: model({
    from: model({
      // Platforms send user ids as numbers or strings; both are stored as the decimal string.
      id: union({ str: NonEmptyString, int: Int }, { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] }),
      display_name: v.optional(v.nullable(v.string())),
    }),
    text: v.string(),
  }),
});
export type ChatUpdate = v.InferOutput<typeof ChatUpdateSchema>;

export interface ChatWebhookResult {
  accepted: true;
  run_id: string;
  duplicate: boolean;
}

/** The binding named in the path, or 404 `binding_not_found`. */
export function findBinding(reader: Pick<RecordReader, 'get'>, bindingId: string): RecordOf<'connections'> {
  const binding = reader.get('connections', bindingId);
  if (!binding) throw new ApiError('binding_not_found', { affected_resource: `connection_binding:${bindingId}` });
  return binding;
}

/** Constant-time check of X-Chatapp-Secret-Token; a binding without a secret accepts nothing. */
export function verifyChatSecret(binding: RecordOf<'connections'>, given: string | undefined): void {
  const expected = binding.webhook_secret;
  // Compare even when something is missing, so every refusal costs the same.
  const ok = secretEquals(given ?? '', expected ?? '') && !!expected && given !== undefined;
  if (!ok) throw new ApiError('webhook_secret_invalid', { affected_resource: `connection_binding:${binding.id}` });
}

/**
 * The agent the live release attaches to this connection. Plans are sorted by agent id; when
 * several attach it, the binding's `configuration.default_agent` wins if it is one of them.
 */
function liveAgent(tx: Transaction, binding: RecordOf<'connections'>): { release_id: string; agent_id: string } {
  const target = tx.get('targets', `${binding.project_id}:live`);
  const release = target ? tx.get('releases', target.release_id) : undefined;
  const plans = ((release?.document as { execution_plans?: unknown })?.execution_plans ?? []) as { agent_id: string; connections?: { name: string }[] }[];
  const attached = plans.filter((p) => (p.connections ?? []).some((c) => c.name === binding.connection_name)).map((p) => p.agent_id);
  if (!release || attached.length === 0) {
    throw new ApiError('no_live_agent', {
      affected_resource: `connection:${binding.connection_name}`,
      message: release ? `The live release attaches no agent to connection ${binding.connection_name}.` : 'The project has no live release.',
    });
  }
  const preferred = (binding.configuration as { default_agent?: unknown }).default_agent;
  const agent_id = typeof preferred === 'string' && attached.includes(preferred) ? preferred : attached[0];
  return { release_id: release.id, agent_id };
}

/** Finds the sender's app user (by chatapp id) and refreshes it, or creates one. */
function upsertSender(deps: WriteDeps, tx: Transaction, binding: RecordOf<'connections'>, from: ChatUpdate['message']['from'], now: string): RecordOf<'users'> {
  const externalId = String(from.id);
  const displayName = from.display_name ?? undefined;
  const existing = tx.where(
    'users',
    'external_user_id',
    externalId,
    (u) => u.project_id === binding.project_id && u.status !== 'deleted' && u.external_provider === 'chatapp',
  )[0];
  if (existing) {
    // A message is activity, not a change of preference: preferred_channel is kept.
    return tx.put('users', { ...existing, last_active_at: now, display_name: displayName ?? existing.display_name });
  }
  return tx.put('users', {
    id: deps.ids(),
    project_id: binding.project_id,
    created_at: now,
    preferred_channel: 'chatapp',
    status: 'active',
    display_name: displayName ?? null,
    external_provider: 'chatapp',
    external_user_id: externalId,
    last_active_at: now,
  });
}

/** Applies one verified update in one transaction: duplicate check, user upsert, run, full-content trace. */
export async function acceptChatUpdate(deps: WriteDeps, binding: RecordOf<'connections'>, update: ChatUpdate): Promise<ChatWebhookResult> {
  const result = await deps.store.transact((tx) => acceptChatUpdateTx(deps, tx, binding, update, tx.nowMs()));
  if (!result.duplicate) await noteRetainedInserts(deps, 1);
  return result;
}

/**
 * The webhook's transaction at `nowMs` (the simulation's synthetic messages use it at their due time). Every
 * refusal is thrown before the first write, so a caller may catch it inside a larger transaction.
 */
export function acceptChatUpdateTx(deps: WriteDeps, tx: Transaction, verified: RecordOf<'connections'>, update: ChatUpdate, nowMs: number): ChatWebhookResult {
  // The binding and the secret the caller proved are read again here: one deleted or given a new secret meanwhile refuses.
  const binding = tx.get('connections', verified.id);
  if (!binding) throw new ApiError('binding_not_found', { affected_resource: `connection_binding:${verified.id}` });
  if (binding.webhook_secret !== verified.webhook_secret)
    throw new ApiError('webhook_secret_invalid', { affected_resource: `connection_binding:${binding.id}` });
  writableProject(tx, binding.project_id);
  const key = `${binding.id}:${update.update_id}`;
  const seen = tx.get('chat_updates', key);
  if (seen) return { accepted: true, run_id: seen.run_id, duplicate: true };

  const { release_id, agent_id } = liveAgent(tx, binding);
  const now = new Date(nowMs).toISOString();
  const user = upsertSender(deps, tx, binding, update.message.from, now);
  const run_id = deps.ids();
  const trace_id = deps.ids();
  const run = tx.put('runs', {
    id: run_id,
    project_id: binding.project_id,
    created_at: now,
    runtime_mode: 'live',
    status: 'queued',
    surface: 'chatapp',
    release_id,
    trace_id,
    user_id: user.id,
    // The message text is user content: it lives in the run's full-content trace (deleted with
    // the user by endpoint 20), never in metadata that outlives the user.
    request_metadata: {
      source: 'chatapp_webhook',
      binding_id: binding.id,
      connection_name: binding.connection_name,
      update_id: update.update_id,
      agent_id,
      text_length: update.message.text.length,
    },
    result: {},
    events: [],
    steps: [],
    timing: {},
    trace_content_status: 'available',
  });
  tx.put('traces', { id: trace_id, project_id: binding.project_id, user_id: user.id, run_id, content: update.message.text });
  tx.put('chat_updates', { key, binding_id: binding.id, update_id: String(update.update_id), run_id, received_at: now });
  deps.runHooks?.queued(tx, run, nowMs);
  return { accepted: true, run_id, duplicate: false };
}
