// Synthetic chat traffic: users of a chat binding send messages at random (seeded) times, through the webhook's own transaction.
import type { WriteDeps } from '../deps.js';
import type { Transaction } from '../storage/index.js';
import type { Traffic } from '../schemas/index.js';
import { ApiError } from '../errors.js';
import { seededFraction } from '../domain/index.js';
import { acceptChatUpdateTx } from '../domain/index.js';

const HOUR_MS = 60 * 60 * 1000;

const DEFAULT_TEXTS = [
  'How do I reset my password?',
  'My invoice shows the wrong amount.',
  'Can I change the email on my account?',
  'The app logs me out every few minutes.',
  'Where can I download last month’s receipt?',
  'Is there an outage right now?',
  'Please cancel my subscription at the end of the month.',
  'How do I add a teammate?',
];

/** The gap before message `n` of source `index`: exponential (a Poisson stream) with the configured mean, at least 1 ms. */
export function gapMs(seed: string, index: number, n: number, t: Traffic): number {
  const u = seededFraction(seed, `traffic:${index}:${n}:gap`);
  return Math.max(1, Math.round(-Math.log(1 - u) * (HOUR_MS / t.messages_per_hour)));
}

/** Update ids far above a real platform's, one range per source, so a synthetic message never collides with a real one. */
const updateId = (index: number, n: number) => 1_000_000_000_000 + index * 1_000_000_000 + (n % 1_000_000_000);

export type MessageOutcome = { run_id: string } | { skipped: string } | { stop: string };

/** A message that reached its binding: what it sent, when, and how the webhook's transaction answered it. */
export interface SentMessage {
  atMs: number;
  bindingId: string;
  update: { update_id: number; message: { from: { id: string; display_name: string }; text: string } };
  /** The run it queued, or the reason code the webhook refused it with. */
  outcome: { run_id: string } | { skipped: string };
}

/**
 * Sends message `n` of source `index` at `ms`, as the webhook would have received it. A refusal (archived project,
 * no live agent) skips this message; a binding that no longer exists stops the source.
 */
export function sendMessage(
  deps: WriteDeps,
  tx: Transaction,
  seed: string,
  index: number,
  n: number,
  t: Traffic,
  ms: number,
  sent?: (m: SentMessage) => void,
): MessageOutcome {
  const binding = tx.get('connections', t.binding_id);
  if (!binding) return { stop: 'binding_not_found' };
  const senders = t.senders ?? 20;
  const sender = 1 + Math.floor(seededFraction(seed, `traffic:${index}:${n}:sender`) * senders);
  const texts = t.texts ?? DEFAULT_TEXTS;
  const text = texts[Math.floor(seededFraction(seed, `traffic:${index}:${n}:text`) * texts.length)];
  const update = { update_id: updateId(index, n), message: { from: { id: `sim-${index + 1}-${sender}`, display_name: `Simulated user ${sender}` }, text } };
  let outcome: { run_id: string } | { skipped: string };
  try {
    outcome = { run_id: acceptChatUpdateTx(deps, tx, binding, update, ms).run_id };
  } catch (err) {
    // The webhook refuses before its first write, so nothing of this message is in the transaction.
    if (!(err instanceof ApiError)) throw err;
    outcome = { skipped: err.reason_code };
  }
  sent?.({ atMs: ms, bindingId: binding.id, update, outcome });
  return outcome;
}
