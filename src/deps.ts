// What the domain needs from createApp (store, clock, ids, config); nothing here is global, and nothing of the control surface.
import type { ReadView, Store, Transaction, Writer } from './storage/index.js';
import type { RecordOf } from './schemas/state.js';
import type { MockClock } from './domain/clock.js';
import type { IdGenerator, TokenGenerator } from './domain/ids.js';
import type { RetentionTracker } from './domain/retention.js';

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
 * its own transaction. Deps is assignable to it.
 */
export interface WriteDeps {
  store: Writer;
  clock: MockClock;
  ids: IdGenerator;
  tokens: TokenGenerator;
  config: RuntimeConfig;
  /** The simulation's hooks, set by createApp. */
  runHooks?: RunHooks;
  /** When the tables that only grow (tokens, codes, dedupe keys) were last pruned. */
  retention: RetentionTracker;
}

/** What createApp assembles: the write face and the whole store (routes, the control surface and the simulation read it). */
export interface Deps extends WriteDeps {
  store: Store;
  /** The same store, read-only: what routes and the control surface read (writes go through the domain). */
  view: ReadView;
}

/**
 * `deps` with `runHooks`. Written out field by field, not spread: V8 gives each object a spread makes at a busy site a
 * hidden class of its own (about 300 bytes), and every mock (sandbox) holds its deps for as long as it lives.
 */
export function withRunHooks(deps: Deps, runHooks: RunHooks): Deps {
  const { store, view, clock, ids, tokens, config, retention } = deps;
  return { store, view, clock, ids, tokens, config, retention, runHooks };
}
