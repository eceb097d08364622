// What takes a session away from a mock: repro bundles (and their import), replayable tests, the HAR, the client report.
// Bundles and tests are src/reproduce's, loaded at their first use: a mock that never exports one never reads that code.
import type { Readable } from 'node:stream';
import type { Streamed } from '../json-stream.js';
import { invalid } from '../validation.js';
import type { JournalFilter } from '../control/index.js';
import { faultBoundText, harOf } from '../control/index.js';
import type { TestExportRequest } from '../reproduce/index.js';
import { assertClean, clientReport, type ClientReport } from '../judge/index.js';
import type { BUNDLE_FORMAT, StateData } from '../schemas/index.js';
import type { Store } from '../storage/index.js';
import type { RuntimeConfig } from '../domain/index.js';
import type { Simulation } from '../simulation/index.js';
import { reloaded, type ControlWrites } from './control-core.js';

/** What a bundle's export reads: the stored state, the simulation's settings and the keys it seals. */
export interface BundleReads {
  readonly store: Pick<Store, 'toData'>;
  readonly sim: Pick<Simulation, 'mode' | 'retentionDays'>;
  readonly config: Pick<RuntimeConfig, 'adminKey' | 'brokerSecret'>;
}

/** A streamed document as one string. */
async function textOf(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

/** A bundle's import writes through `core` (no clock, no store reads); the exports read `reads`. */
export class ReproControl {
  constructor(
    private readonly core: ControlWrites,
    private readonly reads: BundleReads,
  ) {}

  /** GET /_mock/bundle: states, clock, simulation, faults, generators and journal as one JSON text, secrets sealed. */
  async exportBundleStream(): Promise<Streamed<{ format: typeof BUNDLE_FORMAT }>> {
    const { sealer, parts, generators, resetPoint } = this.core;
    const { store, sim, config } = this.reads;
    const resetState = await resetPoint.read();
    const src = {
      sealer,
      seed: generators?.seed ?? null,
      generators: generators?.positions() ?? null,
      faults: parts.faults.snapshot(),
      journal: { next_id: parts.journal.next, left: parts.journal.left, entries: parts.journal.list() },
      resetState,
      state: store.toData(),
      mode: sim.mode(),
      retentionDays: sim.retentionDays(),
      keys: { admin_key: config.adminKey(), broker_secret: config.brokerSecret() },
    };
    return (await import('../reproduce/index.js')).bundleStream(src);
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
    const { store, sealer, parts, generators, resetPoint } = this.core;
    const b = (await import('../reproduce/index.js')).openBundle(input, sealer);
    if (!parts.faults.fits(b.faults)) {
      throw invalid(['body', 'faults', 'faults'], `A mock holds ${faultBoundText(parts.faults.limits)}`, 'value_error', b.faults.faults.length);
    }
    await store.replace(b.state);
    await resetPoint.write(b.resetState);
    parts.faults.restore(b.faults);
    parts.journal.restore(b.journal.records, b.journal.next_id);
    if (b.generators) generators?.moveTo(b.generators);
    parts.coverage.clear();
    await reloaded(this.core);
  }

  /**
   * Begins a new session: the mock as it is now is what an exported test rebuilds, and the next request is its first.
   * Start-up, reset, fixture loads, state, snapshot and bundle restores begin one too.
   */
  startSession(): void {
    this.core.session.begin();
  }

  /** @internal A mock just built whose store holds exactly `state` (nothing written since): its first session keeps that document, no copy. */
  startFirstSession(state: StateData | undefined): void {
    this.core.session.begin(state);
  }

  /**
   * GET /_mock/requests/export: the session as a self-contained test file (node:test or vitest) that builds the mock
   * from the session's start, replays its requests in order and asserts each recorded status and body from `since`.
   */
  async exportTestStream(request: TestExportRequest = {}): Promise<Streamed<string>> {
    return this.core.session.export(await this.core.resetPoint.read(), request);
  }

  /** The exported test file as text (see exportTestStream). */
  async exportTest(request: TestExportRequest = {}): Promise<string> {
    return textOf(await this.exportTestStream(request));
  }

  /** `value` with every sealed part opened (an exported test's steps): in process only, where the secrets are held anyway. */
  unseal<T>(value: T): T {
    return this.core.sealer.unsealDeep(value) as T;
  }

  /** The journal (filtered as requests() is) as a HAR 1.2 document, redacted as the journal shows it. */
  har(filter: JournalFilter = {}) {
    return harOf(this.core.parts.journal.list(filter), this.core.parts.journal.left, 'v3');
  }

  /** How the client under test behaved: each rule over the journal (GET /_mock/client-report). */
  clientReport(): ClientReport {
    return clientReport(this.core.parts.journal.records({ simulated: false }), this.core.parts.journal.left);
  }

  /** Throws an AssertionError listing every finding of severity `error` (warnings pass). */
  assertCleanClient(): ClientReport {
    return assertClean(this.clientReport());
  }
}
