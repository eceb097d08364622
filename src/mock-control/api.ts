// The in-process control API (docs/control-surface.md): what /_mock routes call, typed for tests that embed the mock.
import type { Deps } from '../deps.js';
import type { Snapshot } from '../storage/index.js';
import { CompleteStateDataSchema, type StateData } from '../schemas/index.js';
import { ApiError, invalid } from '../errors.js';
import { heldSecrets } from '../control/index.js';
import { Journal, type JournalEntry, type JournalFilter, type JournalLimits, type JournalSummary } from '../control/index.js';
import type { SandboxParts } from './sandbox-control.js';
import { ReproControl, type ControlParts } from './repro-control.js';
import type { JournalBudget } from '../control/index.js';
import { validFault, type FaultRegistry, type Fault, type FaultSpec } from '../control/index.js';
import type { VerifyAnswer, VerifyListRequest, VerifyRequest } from '../control/index.js';
import { CoverageTracker, type CoverageReport } from '../control/index.js';
import { sealedStateStream } from '../control/index.js';
import type { Readable } from 'node:stream';
import { validateFixture } from '../control/index.js';
import { ClockRequestSchema } from '../schemas/index.js';
import { parse as parseInput } from '../validation.js';
import { AssertionError } from 'node:assert';
import { gapText, gate, type GateResult, type Requirement } from '../control/index.js';
import type { DriftReport, DriftSource } from '../schemas/index.js';
import { timeline, type Timeline } from '../control/index.js';
import type { TimelineQuery } from '../schemas/index.js';

export type { ControlParts } from './repro-control.js';

/**
 * The journal of one mock: it hides the secrets `deps` holds and `keys` (the control and shadow tokens), and shares
 * `budget` (its bytes) with the journals of the server's other mocks.
 */
export function mockJournal(deps: Deps, limits: JournalLimits | undefined, keys: readonly (string | undefined)[], budget?: JournalBudget): Journal {
  return new Journal(limits, heldSecrets(deps, keys), budget);
}

/** The per-mock parts, from the journal, faults and coverage report built first. */
export function controlParts(
  journal: Journal,
  faults: FaultRegistry,
  own: SandboxParts & { drift: DriftSource },
  coverage = new CoverageTracker(),
): ControlParts {
  return { journal, faults, coverage, drift: own.drift, snapshots: own.snapshots, sandboxes: own.sandboxes };
}

export class MockControl extends ReproControl {
  /** Back to the loaded fixtures; also clears the journal, the faults and the coverage report. */
  async reset(): Promise<void> {
    this.journal.clear();
    this.faultRegistry.clear();
    this.coverageTracker.clear();
    this.driftRecord.clear();
    // Shared storage keeps what reset returns to, so every instance resets to the fixtures last loaded through any of them.
    await this.deps.store.replace((await this.deps.store.readResetState()) ?? this.seed);
    await this.sim.load(true);
    // Back to what the instance was started with, not only to the fixtures: a sped-up clock runs again, traffic flows.
    await this.sim.applyStart();
    this.session.begin();
  }

  /**
   * Loads a fixture document, replacing all state; it becomes what reset returns to. A bad fixture
   * throws a ValidationError whose items locate each bad field (`["body", "runs", 3, "status"]`) and changes nothing.
   */
  async loadFixtures(fixture: unknown): Promise<void> {
    const state = validateFixture(fixture);
    this.seed = state;
    await this.deps.store.replace(state);
    await this.deps.store.writeResetState(state);
    await this.sim.load(true);
    await this.sim.applyStart();
    this.session.begin();
  }

  /** A cheap in-process snapshot (no serialization), to restore before each test. */
  snapshot(): Snapshot {
    return this.deps.store.snapshot();
  }

  async restore(snapshot: Snapshot): Promise<void> {
    await this.deps.store.restore(snapshot);
    await this.sim.load(false);
    this.session.begin();
  }

  /**
   * The stored state as plain JSON. In-process the secrets are in clear by default (the caller already holds
   * the store); `{ sealed: true }` seals them as GET /_mock/state does.
   */
  exportState(options: { sealed?: boolean } = {}): StateData {
    const data = this.deps.store.toData();
    return options.sealed ? this.sealer.sealState(data) : data;
  }
  /** The sealed export (what GET /_mock/state sends) as JSON text in chunks: any size of state is served. */
  exportStateStream(): Readable {
    return sealedStateStream(this.deps.store.toData(), this.sealer);
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
    await this.deps.store.replace(parseInput(CompleteStateDataSchema, this.sealer.unsealState(data), 'body') as StateData);
    await this.sim.load(false);
    this.session.begin();
  }

  now(): string {
    return this.deps.clock.nowIso();
  }

  /** Freezes the clock at `now` (a datetime, validated like POST /_mock/clock's body); in simulation mode auto, what falls due by then happens first. */
  async setClock(now: string): Promise<string> {
    const body = parseInput(ClockRequestSchema, { now }, 'body');
    await this.sim.moveClock(this.deps.clock.frozenAt(body.now!), ['body', 'now']);
    return this.now();
  }

  /**
   * Moves the clock forward (or back, with a negative value); the clock stays within 0001-01-01 .. 9999-01-01. In
   * simulation mode auto, what falls due by then happens first.
   */
  async advanceClock(ms: number): Promise<string> {
    const body = parseInput(ClockRequestSchema, { advance_ms: ms }, 'body');
    await this.sim.moveClock(this.deps.clock.advanced(body.advance_ms!), ['body', 'advance_ms']);
    return this.now();
  }

  // ---- faults, journal, run lifecycle, codes, coverage ----

  /** Injects a fault for matching v3 requests (validated like POST /_mock/faults). */
  addFault(spec: FaultSpec): Fault {
    return this.faultRegistry.add(validFault(spec));
  }

  /** The faults still active. */
  faults(): Fault[] {
    return this.faultRegistry.list();
  }

  /** Removes every fault; answers how many there were. */
  clearFaults(): number {
    return this.faultRegistry.clear();
  }

  /**
   * Journal entries, oldest first (bounded to the last 1000), filtered by method, path (substring or glob), status, `after`
   * an id and `limit` (the newest N); `summary: true` leaves out query, headers and bodies.
   */
  requests(filter?: JournalFilter & { summary?: false }): JournalEntry[];
  requests(filter: JournalFilter & { summary: true }): JournalSummary[];
  requests(filter: JournalFilter & { summary?: boolean }): JournalEntry[] | JournalSummary[];
  requests(filter: JournalFilter & { summary?: boolean } = {}): JournalEntry[] | JournalSummary[] {
    return filter.summary ? this.journal.summaries(filter) : this.journal.list(filter);
  }

  /** One journal entry in full (redacted); 404 `request_not_found` once it has left the journal. */
  journalEntry(id: number): JournalEntry {
    const e = this.journal.get(id);
    if (!e) throw new ApiError('request_not_found', { affected_resource: `request:${id}` });
    return e;
  }

  /**
   * Asserts that the journal holds requests matching `request`, `count` times (at least once without it); throws
   * node's AssertionError with `expected` and `actual` otherwise. Answers `{matched, ids}`.
   */
  verify(input: VerifyRequest): VerifyAnswer {
    return this.verifier.assert('verify', input);
  }

  /** Asserts that requests matching these patterns happened in this order (others possibly between them). */
  verifySequence(input: VerifyListRequest): VerifyAnswer {
    return this.verifier.assert('verifySequence', input);
  }

  /** Asserts that every journaled request matches at least one of these patterns. */
  verifyOnly(input: VerifyListRequest): VerifyAnswer {
    return this.verifier.assert('verifyOnly', input);
  }

  /** Empties the journal; answers how many entries it held. */
  clearRequests(): number {
    return this.journal.clear();
  }

  /** Which statuses, reason codes and transitions of the 20 operations the traffic so far exercised (reset clears it). */
  coverage(): CoverageReport {
    return this.coverageTracker.report();
  }

  /**
   * The coverage gate in process: throws an AssertionError listing each gap (coverage under `failUnder` percent, an
   * `OPERATION:STATUS[:REASON]` never answered) with the control calls that would provoke it.
   */
  assertCoverage(options: { failUnder?: number; require?: (string | Requirement)[] } = {}): GateResult {
    if (options.failUnder !== undefined && !(options.failUnder >= 0 && options.failUnder <= 100))
      throw new TypeError(`assertCoverage: failUnder must be 0..100, got ${options.failUnder}`);
    const result = gate(this.coverage(), options);
    if (!result.ok)
      throw new AssertionError({ message: `Coverage gaps:\n${gapText(result.gaps)}`, actual: result.gaps, expected: [], operator: 'assertCoverage' });
    return result;
  }

  /** What to exercise next: the gaps the coverage gate names at 100 %, each with the calls that provoke it (GET /_mock/coverage/next). */
  coverageNext(): { percent: number; gaps: GateResult['gaps'] } {
    const result = gate(this.coverage(), { failUnder: 100 });
    return { percent: result.percent, gaps: result.gaps };
  }

  /** What shadow mode found: differences by operation and field, counts, the target's state (GET /_mock/drift); `settled` waits for the queue. */
  drift(): DriftReport;
  drift(options: { settled: true }): Promise<DriftReport>;
  drift(options: { settled?: boolean } = {}): DriftReport | Promise<DriftReport> {
    return options.settled ? this.driftRecord.settled() : this.driftRecord.report();
  }

  /**
   * Runs by status, spend per project, approvals opened and decided, jobs fired and requests by status class over a
   * span of the mock clock (by default the last day), in at most 240 buckets (GET /_mock/timeline).
   */
  timeline(query: TimelineQuery = {}): Timeline {
    return timeline(this.deps.view, this.journal.records(), this.deps.clock.nowMs(), query);
  }

  /** Clock state as answered by /_mock/clock. */
  clock(): { now: string; frozen_at: string | null; offset_ms: number } {
    const c = this.deps.view.clock;
    return { now: this.now(), frozen_at: c.frozen_at ?? null, offset_ms: c.offset_ms ?? 0 };
  }
}
