// Retention of the tables that only grow (tokens, codes, webhook dedupe keys): what is kept how long by the mock clock, pruned in amortized sweeps.
import type { Transaction, Writer } from '../storage/index.js';
import { PRIMARY_KEYS } from '../schemas/state.js';

/**
 * How long a record is kept after it stops mattering, by the mock clock. Within this window nothing changes:
 * an expired access token still answers `token_expired`, a rotated-out refresh token or a used code still
 * revokes its family, a repeated update or event is still a duplicate.
 */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Dedupe keys kept at most, newest first, whatever the clock does (a frozen clock never ages them). */
export const DEDUPE_KEYS_MAX = 100_000;

/** A sweep runs after this many new retained records, or a quarter of the retained records, whichever is more. */
export const SWEEP_MIN_INSERTS = 1_000;

type Retained = 'access_tokens' | 'refresh_tokens' | 'authorization_codes' | 'chat_updates' | 'broker_events';

/** Per instance: new records since the last sweep, and how many records the last sweep kept. */
export class RetentionTracker {
  inserts = 0;
  keptAtLastSweep = 0;
  running = false;
  /** Sweeps run so far (for tests and the soak's report). */
  sweeps = 0;
}

/** What a sweep needs of a mock's collaborators (its write deps hold them). */
interface RetentionDeps {
  store: Writer;
  retention: RetentionTracker;
}

export interface SweepResult {
  pruned: Record<Retained, number>;
}

/**
 * Notes `n` new retained records; once enough arrived since the last sweep, sweeps in its own transaction.
 * A sweep reads every retained record, but only after at least a quarter as many new ones arrived: each
 * insert pays for at most four records read, whatever the size of the tables.
 */
export async function noteRetainedInserts(deps: RetentionDeps, n: number): Promise<SweepResult | undefined> {
  const t = deps.retention;
  t.inserts += n;
  if (t.running || t.inserts < Math.max(SWEEP_MIN_INSERTS, t.keptAtLastSweep / 4)) return undefined;
  try {
    return await sweepRetained(deps);
  } catch {
    // The request's own change is stored; a sweep that could not be (storage unavailable) runs again on the next insert.
    return undefined;
  }
}

/** Prunes every retained record past its retention; answers how many of each went. */
export async function sweepRetained(deps: RetentionDeps): Promise<SweepResult> {
  const t = deps.retention;
  t.running = true;
  try {
    const { kept, ...result } = await deps.store.transact((tx) => pruneIn(tx, tx.nowMs()));
    t.inserts = 0;
    t.sweeps++;
    t.keptAtLastSweep = kept;
    return result;
  } finally {
    t.running = false;
  }
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);

/** Prunes in `tx`; `kept` counts the retained records left. */
function pruneIn(tx: Transaction, nowMs: number): SweepResult & { kept: number } {
  const pruned = { access_tokens: 0, refresh_tokens: 0, authorization_codes: 0, chat_updates: 0, broker_events: 0 };
  let seen = 0;
  const cutoff = nowMs - RETENTION_MS;

  // A token family matters while any of its tokens is unexpired: its used refresh tokens and its code must be
  // remembered until then, so that presenting one again still revokes the family.
  const familyEnd = new Map<string, number>();
  const extend = (family: string | null | undefined, end: number) => {
    if (family) familyEnd.set(family, Math.max(familyEnd.get(family) ?? Number.NEGATIVE_INFINITY, end));
  };
  tx.filter('access_tokens', (r) => (seen++, extend(r.family_id, ms(r.expires_at)), false));
  tx.filter('refresh_tokens', (r) => (seen++, extend(r.family_id, ms(r.expires_at)), false));
  tx.filter('authorization_codes', () => (seen++, false));
  const endOf = (family: string | null | undefined, own: number) =>
    Math.max(own, family ? (familyEnd.get(family) ?? Number.NEGATIVE_INFINITY) : Number.NEGATIVE_INFINITY);

  for (const r of tx.filter('access_tokens', (r) => endOf(r.family_id, ms(r.expires_at)) < cutoff)) {
    tx.delete('access_tokens', r.token);
    pruned.access_tokens++;
  }
  for (const r of tx.filter('refresh_tokens', (r) => endOf(r.family_id, ms(r.expires_at)) < cutoff)) {
    tx.delete('refresh_tokens', r.token);
    pruned.refresh_tokens++;
  }
  for (const r of tx.filter('authorization_codes', (r) => endOf(r.family_id, ms(r.expires_at)) < cutoff)) {
    tx.delete('authorization_codes', r.code);
    pruned.authorization_codes++;
  }

  pruned.chat_updates = pruneDedupe(tx, 'chat_updates', cutoff, () => seen++);
  pruned.broker_events = pruneDedupe(tx, 'broker_events', cutoff, () => seen++);
  return { pruned, kept: seen - Object.values(pruned).reduce((a, b) => a + b, 0) };
}

/** Keys received before the cutoff go, and beyond DEDUPE_KEYS_MAX the oldest go too. */
function pruneDedupe(tx: Transaction, c: 'chat_updates' | 'broker_events', cutoff: number, count: () => void): number {
  const keyOf = PRIMARY_KEYS[c] as (r: { received_at: string }) => string;
  const kept: { key: string; at: number }[] = [];
  const old: string[] = [];
  tx.filter(c, (r) => {
    count();
    const at = ms(r.received_at);
    if (at < cutoff) old.push(keyOf(r));
    else kept.push({ key: keyOf(r), at });
    return false;
  });
  for (const key of old) tx.delete(c, key);
  let n = old.length;
  if (kept.length > DEDUPE_KEYS_MAX) {
    kept.sort((a, b) => a.at - b.at);
    for (const { key } of kept.slice(0, kept.length - DEDUPE_KEYS_MAX)) {
      tx.delete(c, key);
      n++;
    }
  }
  return n;
}
