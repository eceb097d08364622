// The one store: the stored state (state.ts), the commit pipeline (commit.ts), multi-instance sync (sync.ts) and whole-state replace (replace.ts) behind one face.
import type { ClockState, StateData } from '../schemas/index.js';
import { persistsChangeSets, type StorageAdapter } from './change-sets.js';
import type { CommitMeter, Pending, WriteObserver } from './commit.js';
import { wholeDocument } from './lowdb-adapter.js';
import type { Maps } from './pending.js';
import { diffTo, wholeState, type Target } from './replace.js';
import { mapsFromData, type Snapshot } from './state.js';
import { SyncingState, type CaughtUpListener } from './sync.js';
import { storageUnavailable } from './unavailable.js';

export { Transaction } from './transaction.js';
export { emptyMaps, type Maps } from './pending.js';
export type { ReadView, RecordReader } from './reader.js';
export type { Writer } from './transaction.js';
export { mapsFromData, type Snapshot } from './state.js';
export { StaleView, type Optimism, type WriteScope, type WriteObserver } from './commit.js';
export type { CaughtUpListener } from './sync.js';
export { StorageUnavailable } from './unavailable.js';

/** Who sees what the store does, given when it is built. */
export interface StoreOptions {
  /** Sees every stored record write with the scope it was made in (the coverage report derives transitions from it). */
  observer?: WriteObserver;
  /** Shared storage: sees what was applied from other instances (the simulation schedules their events). */
  onCaughtUp?: CaughtUpListener;
  /**
   * Start on record maps shared with every store started on the same state (a sandbox of a base): each collection's map
   * is copied at its first write, so creating a store copies nothing.
   */
  sharedBase?: boolean;
  /** Counts commit groups, conflicts and reruns (the server's metrics). */
  meter?: CommitMeter;
}

export class Store extends SyncingState {
  constructor(adapter: StorageAdapter, data: StateData, seq = 0, options: StoreOptions = {}) {
    super(persistsChangeSets(adapter) ? adapter : wholeDocument(adapter), data, seq, options.observer, options.onCaughtUp, options.sharedBase, options.meter);
  }

  /** Stores the whole state as it is (a store seeded from fixtures is saved before the first request). */
  async save(options: { ifEmpty?: boolean } = {}): Promise<boolean> {
    await this.flush();
    const p = this.enqueue(this.pendingWhole({ maps: this.maps, clock: this.clockState, settings: this.settingsState }, options.ifEmpty));
    await this.settled(p);
    return !p.dropped;
  }

  /** The state a reset returns to, when the storage keeps it for every instance (shared storage); else null. */
  async readResetState(): Promise<StateData | null> {
    if (!this.adapter.readResetState) return null;
    try {
      return await this.adapter.readResetState();
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  /** The storage's shared secret (shared storage only; see ChangeSetCapability.secret). */
  async secret(): Promise<string | undefined> {
    try {
      return await this.adapter.secret?.();
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  /** Keeps `state` as what a reset returns to, for every instance (shared storage only). */
  async writeResetState(state: StateData): Promise<void> {
    try {
      await this.adapter.writeResetState?.(state);
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  async setClock(clock: ClockState): Promise<void> {
    await this.transact((tx) => tx.setClock(clock));
  }

  /** Restores a snapshot (which stays reusable) and stores it. */
  async restore(s: Snapshot): Promise<void> {
    await this.replaceWith({ maps: s.maps as Maps, clock: s.clock, settings: s.settings, copy: true });
  }

  /** Replaces the whole state (a reset, a fixture load, an import): one transaction that never loses a race to others' writes. */
  async replace(data: StateData): Promise<void> {
    await this.replaceWith({ maps: mapsFromData(data), clock: data.clock, settings: data.settings, copy: false });
  }

  /** Waits for every write, then lets the adapter finish its own work (the JSON file compacts its log). */
  async close(): Promise<void> {
    await this.flush();
    await this.adapter.close?.(this);
  }

  /** @internal The newest state's clock and settings, as the replace diff compares them. */
  newestClock(): ClockState {
    return this.layer.clock(this.clockState);
  }
  /** @internal */
  newestSettings() {
    return this.layer.settings(this.settingsState);
  }

  /**
   * One change set when that is possible and smaller than the target itself (see diffTo), otherwise the whole
   * state; run again after others' writes, it is a diff against theirs or the whole state, never a refusal.
   */
  private async replaceWith(target: Target): Promise<void> {
    const p: Pending = { fn: diffTo(this, target), whole: () => wholeState(target), observe: false, scope: undefined, seq: 0, attempts: 0, state: 'pending' };
    this.run(p);
    await this.settled(p);
  }

  private pendingWhole(replacement: Pending['replacement'], ifEmpty?: boolean): Pending {
    return { replacement, ifEmpty, observe: false, scope: undefined, seq: 0, attempts: 0, state: 'pending' };
  }
}
