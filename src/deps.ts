// What the domain needs from createApp (store, clock, ids, config); nothing here is global, and nothing of the control surface.
import type { ReadView, Store } from './storage/index.js';
import type { RunHooks, WriteDeps } from './domain/write-deps.js';
import type { MockClock } from './domain/clock.js';

export type { RunHooks, RuntimeConfig, WriteDeps } from './domain/write-deps.js';

/** What createApp assembles: the write face and the whole store (routes, the control surface and the simulation read it). */
export interface Deps extends WriteDeps {
  store: Store;
  /** The same store, read-only: what routes and the control surface read (writes go through the domain). */
  view: ReadView;
  /**
   * The mock clock over the stored state: what answers and reads report as "now". A write never reads it: it reads
   * and moves the clock of its transaction (`tx.now()`, `MockClock.of(tx)`).
   */
  clock: MockClock;
}

/**
 * `deps` with `runHooks`. Written out field by field, not spread: V8 gives each object a spread makes at a busy site a
 * hidden class of its own (about 300 bytes), and every mock (sandbox) holds its deps for as long as it lives.
 */
export function withRunHooks(deps: Deps, runHooks: RunHooks): Deps {
  const { store, view, clock, ids, tokens, config, retention } = deps;
  return { store, view, clock, ids, tokens, config, retention, runHooks };
}
