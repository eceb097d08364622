// Repro bundles: the whole of a mock (states, generators, faults, journal) as one streamed JSON document, and back.
import { Readable } from 'node:stream';
import { streamed, type Streamed } from '../json-stream.js';
import type { StateData } from '../schemas/index.js';
import { SIMULATION_RECORD_ID, type SimulationMode } from '../schemas/index.js';
import { CompleteStateDataSchema } from '../schemas/index.js';
import { BUNDLE_FORMAT, ReproductionBundleSchema, type BundleInput } from '../schemas/index.js';
import { ValidationError, invalid } from '../errors.js';
import { parse } from '../validation.js';
import { SEAL_KEY_HINT, sealedFields, type Sealer } from '../control/index.js';
import { sealedStateChunks } from '../control/index.js';
import type { JournalEntry, JournalRecord } from '../control/index.js';
import type { FaultState } from '../control/index.js';
import type { GeneratorPositions } from '../domain/index.js';
import { entryRecord } from './journal-records.js';

/** What a bundle is written from. */
export interface BundleSource {
  sealer: Sealer;
  /** The seed, or null without one. */
  seed: string | null;
  /** How far the seeded generators had drawn (null without a seed). */
  generators: GeneratorPositions | null;
  faults: FaultState;
  /** The journal: its next id, how many entries had left it, and the entries (redacted). */
  journal: { next_id: number; left: number; entries: JournalEntry[] };
  resetState: StateData;
  state: StateData;
  /** The simulation's mode in force (a createApp or CLI default unless set): the bundle stores it explicitly. */
  mode: SimulationMode;
  /** The simulated days runs are kept in force (a createApp or CLI default unless set): stored explicitly too. */
  retentionDays: number;
  /** Seal the tokens and codes of both states too (a bundle inside an exported test file). */
  credentials?: boolean;
  /** The admin key and broker secret in force (createApp's or the CLI's, else the stored ones): both states carry them (sealed). */
  keys: { admin_key: string | null; broker_secret: string | null };
}

/** `state` with the keys the mock answered with, so a restore answers as it did without being given them again. */
const withKeys = (state: StateData, keys: BundleSource['keys']): StateData => ({ ...state, settings: { ...state.settings, ...keys } });

/**
 * The state with the simulation's mode and retention in force written into its settings record: a mock restoring it
 * with other defaults (the CLI runs auto and keeps 7 days; createApp is off and keeps everything) behaves as this one.
 */
function withSettings(state: StateData, mode: SimulationMode, retention_days: number): StateData {
  const records = state.simulation;
  const settings = records.find((r) => r.id === SIMULATION_RECORD_ID);
  if (settings?.mode === mode && settings.retention_days === retention_days) return state;
  const others = records.filter((r) => r !== settings);
  const base = settings ?? { id: SIMULATION_RECORD_ID, clock: 'frozen', behaviours: { default: {}, projects: [] }, traffic: [] };
  return { ...state, simulation: [{ ...base, mode, retention_days }, ...others] as StateData['simulation'] };
}

/**
 * The bundle as JSON text in chunks, as GET /_mock/state streams a state: the small parts first, then the journal,
 * what reset returns to, and the stored state. Everything is taken when called (one consistent moment).
 */
export function bundleStream(src: BundleSource): Streamed<{ format: typeof BUNDLE_FORMAT }> {
  const entries = src.journal.entries;
  const head = { format: BUNDLE_FORMAT, seal: src.sealer.fingerprint(), seed: src.seed, generators: src.generators, faults: src.faults };
  const journal = { next_id: src.journal.next_id, left: src.journal.left };
  const credentials = src.credentials ?? false;
  async function* chunks(): AsyncGenerator<string> {
    let out = `${JSON.stringify(head).slice(0, -1)},"journal":${JSON.stringify(journal).slice(0, -1)},"entries":[`;
    for (let i = 0; i < entries.length; i++) {
      out += (i > 0 ? ',' : '') + JSON.stringify(entries[i]);
      if (out.length >= 256 * 1024) {
        yield out;
        out = '';
      }
    }
    yield* sealedStateChunks(withKeys(src.resetState, src.keys), src.sealer, `${out}]},"reset_state":`, credentials);
    yield* sealedStateChunks(withKeys(withSettings(src.state, src.mode, src.retentionDays), src.keys), src.sealer, ',"state":', credentials);
    yield '}';
  }
  return streamed(Readable.from(chunks(), { objectMode: false }));
}

/** A bundle checked and opened: what a restore puts in place. */
export interface OpenedBundle {
  seed: string | null;
  generators: GeneratorPositions | null;
  faults: FaultState;
  journal: { next_id: number; records: (JournalRecord & { id: number })[] };
  resetState: StateData;
  state: StateData;
}

/** A bundle's seed, read before anything else is checked: createApp({ bundle }) seeds its generators and seal with it. */
export function bundleSeed(input: unknown): string | undefined {
  const seed = (input as { seed?: unknown } | null)?.seed;
  return typeof input === 'object' && input !== null && typeof seed === 'string' ? seed : undefined;
}

/**
 * Checks a bundle all the way through before anything is changed: its format and version, that this mock's key
 * sealed it, every part's shape, and both states. A problem is a 422 item at its `loc` (under ["body"]).
 */
export function openBundle(input: unknown, sealer: Sealer): OpenedBundle {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid(['body'], 'Input should be a valid dictionary or object to extract fields from', 'model_attributes_type', input);
  }
  const format = (input as { format?: unknown }).format;
  if (typeof format === 'string' && format !== BUNDLE_FORMAT) {
    const version = /^project-runtime-mock\/bundle@(.+)$/.exec(format)?.[1];
    const msg = version ? `Bundle version ${version} is not supported: this mock reads ${BUNDLE_FORMAT}` : `Input should be '${BUNDLE_FORMAT}'`;
    throw invalid(['body', 'format'], msg, 'value_error', format);
  }
  const seal = (input as { seal?: unknown }).seal;
  if (typeof seal === 'string' && seal !== sealer.fingerprint()) {
    // Sealed with another key: what it holds sealed cannot be opened here (a bundle with nothing sealed restores anywhere).
    const held = sealedFields(input);
    if (held.length > 0) {
      throw invalid(['body', 'seal'], `The bundle was sealed with another key, and it holds sealed ${held.join(', ')}: ${SEAL_KEY_HINT}`, 'value_error', seal);
    }
  }
  const b: BundleInput = parse(ReproductionBundleSchema, input, 'body');
  const ids = b.journal.entries.map((e) => e.id);
  ids.forEach((id, i) => {
    if (i > 0 && id !== ids[i - 1] + 1)
      throw invalid(['body', 'journal', 'entries', i, 'id'], 'Journal ids should be consecutive, oldest first', 'value_error', id);
  });
  if (ids.length > 0 && b.journal.next_id <= ids[ids.length - 1])
    throw invalid(['body', 'journal', 'next_id'], 'next_id should be greater than the newest entry id', 'value_error', b.journal.next_id);
  b.faults.faults.forEach((f, i) => {
    if (Number(f.id.slice(4)) >= b.faults.next_id)
      throw invalid(['body', 'faults', 'faults', i, 'id'], 'A fault id should be below faults.next_id', 'value_error', f.id);
  });
  const resetState = stateAt('reset_state', b.reset_state, sealer);
  const state = stateAt('state', b.state, sealer);
  return {
    seed: b.seed,
    generators: b.generators,
    faults: b.faults as FaultState,
    journal: { next_id: b.journal.next_id, records: b.journal.entries.map((e) => entryRecord(e as JournalEntry)) },
    resetState,
    state,
  };
}

/** One of the bundle's states, unsealed and checked as PUT /_mock/state checks it, its items located under `key`. */
function stateAt(key: string, value: unknown, sealer: Sealer): StateData {
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalid(['body'], 'Input should be a valid dictionary or object to extract fields from', 'model_attributes_type', value);
    }
    return parse(CompleteStateDataSchema, sealer.unsealState(value), 'body') as StateData;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new ValidationError(err.items.map((item) => ({ ...item, loc: ['body', key, ...item.loc.slice(1)] })));
  }
}
