// What the domain's write functions get from createApp (a writer, ids, config, the simulation's hooks; time through the transaction); nothing global.
import type { Transaction, Writer } from '../storage/store.js';
import type { RecordOf } from '../schemas/state.js';
import type { IdGenerator, TokenGenerator } from './ids.js';
import type { RetentionTracker } from './retention.js';

export interface RuntimeConfig {
  auth: 'on' | 'off';
  control: boolean;
  /** /_mock requires X-Mock-Control-Token (the OpenAPI document then lists it as a security scheme). */
  controlTokenRequired: boolean;
  /** Request body limit in bytes. */
  bodyLimit: number;
  adminKey(): string | null;
  brokerSecret(): string | null;
}

type Run = RecordOf<'runs'>;

/**
 * What the domain tells the simulation when a write moves a run, inside that write's transaction (so a
 * crash never separates a run from its next event). Implemented by src/simulation; absent: nothing is simulated.
 */
export interface RunHooks {
  /** A run was created `queued` (chat webhook, retry, control with `simulate`): schedule its start. */
  queued(tx: Transaction, run: Run, nowMs: number, options?: { explicit?: boolean; retryOf?: string }): void;
  /** A deny put a simulated run back to `queued`: the answer's run, with its waits accounted, goes on later. */
  requeued(tx: Transaction, run: Run, nowMs: number): Run;
  /** A simulated run was cancelled: its future events go and its timing is closed. */
  cancelled(tx: Transaction, run: Run, nowMs: number): Run;
  /** The control surface moved the run by hand: the simulation lets go of it. */
  detached(tx: Transaction, runId: string): void;
}

/**
 * What the domain's write functions get: the store as a Writer (transactions only), so a write can read nothing but
 * its own transaction, time included: no clock here, a write reads the mock clock through `tx.now()` / `tx.nowMs()`
 * (run again after a conflict, it reads the moved clock). The whole deps createApp assembles (src/deps.ts) is assignable to it.
 */
export interface WriteDeps {
  store: Writer;
  ids: IdGenerator;
  tokens: TokenGenerator;
  config: RuntimeConfig;
  /** The simulation's hooks, set by createApp. */
  runHooks?: RunHooks;
  /** When the tables that only grow (tokens, codes, dedupe keys) were last pruned. */
  retention: RetentionTracker;
}
