// The in-process control API (CONTRACT section 8): what /_mock routes call, typed for tests that embed the mock.
import * as v from 'valibot';
import type { Deps } from '../deps.js';
import type { Snapshot } from '../storage/store.js';
import { StateDataSchema, type StateData } from '../schemas/state.js';
import { stateFromFixture } from '../fixtures.js';
import { invalid } from '../errors.js';
import { issuesToItems } from '../validation.js';
import { ValidationError } from '../errors.js';

export class MockControl {
  constructor(
    protected readonly deps: Deps,
    /** The state the fixtures describe: what reset returns to. */
    protected seed: StateData,
  ) {}

  /** Back to the loaded fixtures. */
  async reset(): Promise<void> {
    await this.deps.store.replace(this.seed);
  }

  /** Loads a fixture document, replacing all state; it becomes what reset returns to. */
  async loadFixtures(fixture: unknown): Promise<void> {
    const state = stateFromFixture(fixture);
    this.seed = state;
    await this.deps.store.replace(state);
  }

  /** A cheap in-process snapshot (no serialization), to restore before each test. */
  snapshot(): Snapshot {
    return this.deps.store.snapshot();
  }

  async restore(snapshot: Snapshot): Promise<void> {
    await this.deps.store.restore(snapshot);
  }

  /** The stored state as plain JSON (what GET /_mock/state answers). */
  exportState(): StateData {
    return this.deps.store.toData();
  }

  /** Replaces the stored state with plain JSON from exportState (validated). */
  async importState(data: unknown): Promise<void> {
    const result = v.safeParse(StateDataSchema, data, { abortEarly: false });
    if (!result.success) throw new ValidationError(issuesToItems(result.issues, 'body'));
    await this.deps.store.replace(result.output);
  }

  now(): string {
    return this.deps.clock.nowIso();
  }

  /** Freezes the clock at `now` (ISO 8601). */
  async setClock(now: string): Promise<string> {
    if (Number.isNaN(Date.parse(now))) throw invalid(['body', 'now'], 'Input should be a valid ISO 8601 date-time', 'datetime_parsing', now);
    await this.deps.store.setClock(this.deps.clock.frozenAt(now));
    return this.now();
  }

  /** Moves the clock forward (or back, with a negative value). */
  async advanceClock(ms: number): Promise<string> {
    await this.deps.store.setClock(this.deps.clock.advanced(ms));
    return this.now();
  }
}
