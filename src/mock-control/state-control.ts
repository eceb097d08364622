// The control operations on a mock's whole state: reset, fixture loads, and the state's export and import.
import type { Streamed } from '../json-stream.js';
import { CompleteStateDataSchema, type StateData } from '../schemas/index.js';
import { invalid } from '../errors.js';
import { parse as parseInput } from '../validation.js';
import { validateFixture } from '../control/index.js';
import { sealedStateStream } from '../control/index.js';
import type { Store } from '../storage/index.js';
import { reloaded, type ControlWrites } from './control-core.js';

/** Reset, fixture loads and imports write through `core` (no clock, no store reads); the exports read `stored`. */
export class StateControl {
  constructor(
    private readonly core: ControlWrites,
    /** The stored state, for the exports (reads). */
    private readonly stored: Pick<Store, 'toData'>,
  ) {}

  /**
   * Back to the loaded fixtures; also clears the journal, the faults and the coverage report. Resolves the mock
   * clock's "now" as the reset's write read it (the fixtures' clock, put back), not as it reads after the reset.
   */
  async reset(): Promise<string> {
    const { store, sim, parts, resetPoint, session } = this.core;
    parts.journal.clear();
    parts.faults.clear();
    parts.coverage.clear();
    parts.drift.clear();
    const now = await store.replace(await resetPoint.read());
    await sim.load(true);
    // Back to what the instance was started with, not only to the fixtures: a sped-up clock runs again, traffic flows.
    // Neither moves the clock's reading: a frozen clock runs on from where it stands, a rate changes from here on.
    await sim.applyStart();
    session.begin();
    return now;
  }

  /**
   * Loads a fixture document, replacing all state; it becomes what reset returns to. A bad fixture
   * throws a ValidationError whose items locate each bad field (`["body", "runs", 3, "status"]`) and changes nothing.
   */
  async loadFixtures(fixture: unknown): Promise<void> {
    const { store, sim, resetPoint, session } = this.core;
    const state = validateFixture(fixture);
    await store.replace(state);
    await resetPoint.write(state);
    await sim.load(true);
    await sim.applyStart();
    session.begin();
  }

  /**
   * The stored state as plain JSON. In-process the secrets are in clear by default (the caller already holds
   * the store); `{ sealed: true }` seals them as GET /_mock/state does.
   */
  exportState(options: { sealed?: boolean } = {}): StateData {
    const data = this.stored.toData();
    return options.sealed ? this.core.sealer.sealState(data) : data;
  }

  /** The sealed export (what GET /_mock/state sends) as JSON text in chunks: any size of state is served. */
  exportStateStream(): Streamed<StateData> {
    return sealedStateStream(this.stored.toData(), this.core.sealer);
  }

  /**
   * Replaces the stored state with a whole document from exportState, sealed or clear: every key must be present
   * (validated; 422 items and no change on bad input).
   */
  async importState(data: unknown): Promise<void> {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw invalid(['body'], 'Input should be a valid dictionary or object to extract fields from', 'model_attributes_type', data);
    }
    // parse(): pydantic's items, and a value nested too deep is refused before anything walks it.
    await this.core.store.replace(parseInput(CompleteStateDataSchema, this.core.sealer.unsealState(data), 'body') as StateData);
    await reloaded(this.core);
  }
}
