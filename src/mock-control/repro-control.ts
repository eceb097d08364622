// The control API's own parts (journal, faults, coverage, the seal) and what takes a session away: repro bundles, the HAR, replayable tests, the client report.
import type { Readable } from 'node:stream';
import type { Deps } from '../deps.js';
import { invalid } from '../validation.js';
import type { StateData } from '../schemas/index.js';
import type { Journal, JournalFilter } from '../control/index.js';
import { SandboxControl, type SandboxParts } from './sandbox-control.js';
import { faultBoundText, type FaultRegistry } from '../control/index.js';
import { Verifier } from '../control/index.js';
import type { CoverageTracker } from '../control/index.js';
import { Sealer } from '../control/index.js';
import type { Simulation } from '../simulation/index.js';
import type { SeededGenerators } from '../domain/index.js';
import { bundleStream, harOf, openBundle, ReplaySession, type TestExportRequest } from '../reproduce/index.js';
import { assertClean, clientReport, type ClientReport } from '../judge/index.js';
import type { DriftSource } from '../schemas/index.js';

/** A streamed document as one string. */
async function textOf(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

/** What each mock keeps of its own traffic, built by createApp before the store and the control surface. */
export interface ControlParts extends SandboxParts {
  journal: Journal;
  faults: FaultRegistry;
  coverage: CoverageTracker;
  /** What shadow mode found (an empty record without a shadow target). */
  drift: DriftSource;
}

export class ReproControl extends SandboxControl {
  constructor(
    deps: Deps,
    /** The state the fixtures describe: what reset returns to. */
    protected seed: StateData,
    /** The seal key (createApp's `sealKey`, the CLI's --seal-key, or shared storage's secret): random without one. */
    sealKey: string | undefined,
    /** The per-instance parts createApp built first: the request journal, injected faults, the coverage report. */
    parts: ControlParts,
    /** The simulation engine. */
    sim: Simulation,
    /** The seeded id and token generators (null without a seed): a repro bundle holds their positions. */
    private readonly generators: SeededGenerators | null = null,
  ) {
    super(deps, sim, parts);
    this.sealer = new Sealer(sealKey);
    this.journal = parts.journal;
    this.faultRegistry = parts.faults;
    this.coverageTracker = parts.coverage;
    this.driftRecord = parts.drift;
    this.verifier = new Verifier(this.journal);
    this.session = new ReplaySession({ deps, sim, sealer: this.sealer, journal: this.journal, faults: this.faultRegistry, generators });
  }

  /** The request journal (per mock). */
  readonly journal: Journal;
  /** Checks of the journal (what POST /_mock/verify... answer). */
  readonly verifier: Verifier;
  /** Injected faults (per instance). */
  readonly faultRegistry: FaultRegistry;
  /** What the v3 traffic so far exercised. */
  readonly coverageTracker: CoverageTracker;
  protected readonly sealer: Sealer;
  /** What shadow mode found (GET /_mock/drift). */
  protected readonly driftRecord: DriftSource;
  /** Where the current session began: what an exported test rebuilds. */
  protected readonly session: ReplaySession;

  override async restoreSnapshot(name: string) {
    const info = await super.restoreSnapshot(name);
    this.session.begin();
    return info;
  }

  /** GET /_mock/bundle: states, clock, simulation, faults, generators and journal as one JSON text, secrets sealed. */
  async exportBundleStream(): Promise<Readable> {
    const { store } = this.deps;
    const resetState = (await store.readResetState()) ?? this.seed;
    const src = {
      sealer: this.sealer,
      seed: this.generators?.seed ?? null,
      generators: this.generators?.positions() ?? null,
      faults: this.faultRegistry.snapshot(),
      journal: { next_id: this.journal.next, left: this.journal.left, entries: this.journal.list() },
      resetState,
      state: store.toData(),
      mode: this.sim.mode(),
      retentionDays: this.sim.retentionDays(),
      keys: { admin_key: this.deps.config.adminKey(), broker_secret: this.deps.config.brokerSecret() },
    };
    return bundleStream(src);
  }

  /** The bundle as a parsed document (what createApp({ bundle }) and importBundle take). */
  async exportBundle(): Promise<Record<string, unknown>> {
    return JSON.parse(await textOf(await this.exportBundleStream())) as Record<string, unknown>;
  }

  /**
   * Restores a bundle whole: after it, the same requests get the answers the mock that wrote it would have given.
   * A bad bundle (format, version, seal, any part) is a ValidationError with its `loc`, and nothing changes.
   */
  async importBundle(input: unknown): Promise<void> {
    const b = openBundle(input, this.sealer);
    if (!this.faultRegistry.fits(b.faults)) {
      throw invalid(['body', 'faults', 'faults'], `A mock holds ${faultBoundText(this.faultRegistry.limits)}`, 'value_error', b.faults.faults.length);
    }
    await this.deps.store.replace(b.state);
    this.seed = b.resetState;
    await this.deps.store.writeResetState(b.resetState);
    this.faultRegistry.restore(b.faults);
    this.journal.restore(b.journal.records, b.journal.next_id);
    if (b.generators) this.generators?.moveTo(b.generators);
    this.coverageTracker.clear();
    await this.sim.load(false);
    this.session.begin();
  }

  /**
   * Begins a new session: the mock as it is now is what an exported test rebuilds, and the next request is its first.
   * Start-up, reset, fixture loads, state, snapshot and bundle restores begin one too.
   */
  startSession(): void {
    this.session.begin();
  }

  /** @internal A mock just built whose store holds exactly `state` (nothing written since): its first session keeps that document, no copy. */
  startFirstSession(state: StateData | undefined): void {
    this.session.begin(state);
  }

  /**
   * GET /_mock/requests/export: the session as a self-contained test file (node:test or vitest) that builds the mock
   * from the session's start, replays its requests in order and asserts each recorded status and body from `since`.
   */
  async exportTestStream(request: TestExportRequest = {}): Promise<Readable> {
    return this.session.export((await this.deps.store.readResetState()) ?? this.seed, request);
  }

  /** The exported test file as text (see exportTestStream). */
  async exportTest(request: TestExportRequest = {}): Promise<string> {
    return textOf(await this.exportTestStream(request));
  }

  /** `value` with every sealed part opened (an exported test's steps): in process only, where the secrets are held anyway. */
  unseal<T>(value: T): T {
    return this.sealer.unsealDeep(value) as T;
  }

  /** The journal (filtered as requests() is) as a HAR 1.2 document, redacted as the journal shows it. */
  har(filter: JournalFilter = {}) {
    return harOf(this.journal.list(filter), this.journal.left, 'v3');
  }

  /** How the client under test behaved: each rule over the journal (GET /_mock/client-report). */
  clientReport(): ClientReport {
    return clientReport(this.journal.records({ simulated: false }), this.journal.left);
  }

  /** Throws an AssertionError listing every finding of severity `error` (warnings pass). */
  assertCleanClient(): ClientReport {
    return assertClean(this.clientReport());
  }
}
