// One mock's current session: where it began (kept bounded, as one store snapshot), and its export as a replayable test.
// The start is taken at every session's beginning; the export's code (src/reproduce) loads at the first export.
import type { Streamed } from '../json-stream.js';
import type { Deps } from '../deps.js';
import type { StateData } from '../schemas/index.js';
import type { Simulation } from '../simulation/index.js';
import type { SeededGenerators } from '../domain/index.js';
import type { Journal } from '../control/index.js';
import type { FaultRegistry } from '../control/index.js';
import type { Sealer } from '../control/index.js';
import type { SessionStart, TestExportRequest } from '../reproduce/index.js';

/** What a session is taken from: the mock's own parts. */
export interface SessionParts {
  deps: Deps;
  sim: Simulation;
  sealer: Sealer;
  journal: Journal;
  faults: FaultRegistry;
  generators: SeededGenerators | null;
}

export class ReplaySession {
  /*
   * Taken by begin(), never here: a mock begins its first session once it is assembled (after its simulation loaded and
   * its start settings went on), before it answers anything, so a start taken now would be replaced unread; a start
   * that is not the document just loaded copies every collection's map (a million entries on a store of a million runs).
   */
  private start: SessionStart | undefined;

  constructor(private readonly parts: SessionParts) {}

  /**
   * The next request begins a new session: the mock as it is now (state, clock, simulation, faults, generators) is
   * what an exported test rebuilds. Replaces the previous start, so at most one is kept. `state`: the document the
   * store holds exactly now, when the caller has it (a mock just built, nothing written yet): kept instead of a snapshot.
   */
  begin(state?: StateData): void {
    this.start = this.capture(state);
  }

  /** The journal id of the session's first request. */
  get firstId(): number {
    return this.begun.firstId;
  }

  private get begun(): SessionStart {
    if (this.start === undefined) throw new Error('no session has begun: a mock begins its first as it is assembled');
    return this.start;
  }

  private capture(state?: StateData): SessionStart {
    const { deps, sim, journal, faults, generators } = this.parts;
    return {
      state: state ?? deps.store.snapshot(),
      generators: generators?.positions() ?? null,
      faults: faults.snapshot(),
      firstId: journal.next,
      mode: sim.mode(),
      retentionDays: sim.retentionDays(),
      frozen: Boolean(deps.view.clock.frozen_at),
      adminKey: deps.config.adminKey(),
      brokerSecret: deps.config.brokerSecret(),
    };
  }

  /** The session as a test file (see exportTestStream); `resetState` is what the bundle inside it resets to. */
  async export(resetState: StateData, request: TestExportRequest): Promise<Streamed<string>> {
    const { deps, generators, sealer, journal } = this.parts;
    const { exportTestStream } = await import('../reproduce/index.js');
    return exportTestStream(
      {
        start: this.begun,
        seed: generators?.seed ?? null,
        idsSeeded: generators !== null && deps.ids === generators.ids,
        frozenNow: Boolean(deps.view.clock.frozen_at),
        sealer,
        journal,
        resetState,
        options: { auth: deps.config.auth, bodyLimit: deps.config.bodyLimit },
      },
      request,
    );
  }
}
