// The newest state for transactions: what was applied but not yet stored, layered over the committed maps.
import { COLLECTION_NAMES, type ClockState, type CollectionName, type RecordOf, type Settings } from '../schemas/index.js';
import type { ChangeSet } from './change-sets.js';
import { DELETED } from './transaction.js';

export type Maps = { [C in CollectionName]: Map<string, RecordOf<C>> };
type AnyMaps = Record<CollectionName, Map<string, unknown>>;

/** A whole state that replaces everything (a reset or restore too large to be a change set, the first save). */
export interface Replacement {
  readonly maps: Maps;
  readonly clock: ClockState;
  readonly settings: Settings;
}

interface Entry {
  value: unknown; // a record, or DELETED
  seq: number;
}

export function emptyMaps(): Maps {
  return Object.fromEntries(COLLECTION_NAMES.map((c) => [c, new Map()])) as unknown as Maps;
}

/**
 * Pending writes by key (the newest wins), and a pending replacement that hides the committed maps.
 * Readers never look here: only transactions do, so they build on writes that are still being stored.
 */
export class PendingLayer {
  /** Pending writes by collection; none while nothing is pending (storage in memory stores each write at once). */
  private overlay: Map<CollectionName, Map<string, Entry>> | undefined;
  private base: { maps: Maps; seq: number } | null = null;
  private clockEntry: { value: ClockState; seq: number } | null = null;
  private settingsEntry: { value: Settings; seq: number } | null = null;

  get empty(): boolean {
    return this.overlay === undefined && this.base === null && this.clockEntry === null && this.settingsEntry === null;
  }

  addSet(set: ChangeSet): void {
    for (const ch of set.changes) {
      const overlay = (this.overlay ??= new Map());
      let m = overlay.get(ch.collection);
      if (!m) overlay.set(ch.collection, (m = new Map()));
      m.set(ch.key, { value: ch.record ?? DELETED, seq: set.seq });
    }
    if (set.clock) this.clockEntry = { value: set.clock, seq: set.seq };
    if (set.settings) this.settingsEntry = { value: set.settings, seq: set.seq };
  }

  addReplacement(seq: number, r: Replacement): void {
    this.overlay = undefined;
    this.base = { maps: r.maps, seq };
    this.clockEntry = { value: r.clock, seq };
    this.settingsEntry = { value: r.settings, seq };
  }

  /** Forgets what change set (or replacement) `seq` wrote, now that the committed state holds it. */
  stored(seq: number, set: ChangeSet | undefined): void {
    const overlay = this.overlay;
    if (set && overlay) {
      for (const ch of set.changes) {
        const m = overlay.get(ch.collection);
        const e = m?.get(ch.key);
        if (e && e.seq <= seq) {
          m!.delete(ch.key);
          if (m!.size === 0) overlay.delete(ch.collection);
        }
      }
      if (overlay.size === 0) this.overlay = undefined;
    }
    if (this.base && this.base.seq <= seq) this.base = null;
    if (this.clockEntry && this.clockEntry.seq <= seq) this.clockEntry = null;
    if (this.settingsEntry && this.settingsEntry.seq <= seq) this.settingsEntry = null;
  }

  clear(): void {
    this.overlay = undefined;
    this.base = null;
    this.clockEntry = null;
    this.settingsEntry = null;
  }

  clock(committed: ClockState): ClockState {
    return this.clockEntry?.value ?? committed;
  }

  settings(committed: Settings): Settings {
    return this.settingsEntry?.value ?? committed;
  }

  get(committed: Maps, c: CollectionName, key: string): unknown {
    const e = this.overlay?.get(c)?.get(key);
    if (e) return e.value === DELETED ? undefined : e.value;
    return ((this.base?.maps ?? committed) as AnyMaps)[c].get(key);
  }

  has(committed: Maps, c: CollectionName, key: string): boolean {
    return this.get(committed, c, key) !== undefined;
  }

  /** The keys of `c` that pending change sets write; null while a whole replacement state is pending. */
  pendingKeys(c: CollectionName): string[] | null {
    if (this.base) return null;
    const own = this.overlay?.get(c);
    return own ? [...own.keys()] : [];
  }

  entries(committed: Maps, c: CollectionName): Iterable<[string, unknown]> {
    const base = ((this.base?.maps ?? committed) as AnyMaps)[c];
    const own = this.overlay?.get(c);
    if (!own) return base.entries();
    return merged(base, own);
  }
}

function* merged(base: Map<string, unknown>, own: Map<string, Entry>): Generator<[string, unknown]> {
  for (const [key, r] of base) {
    const e = own.get(key);
    if (!e) yield [key, r];
    else if (e.value !== DELETED) yield [key, e.value];
  }
  for (const [key, e] of own) if (e.value !== DELETED && !base.has(key)) yield [key, e.value];
}
