// Whole-state replace (reset, fixture load, PUT state, restore, the first save): one change set against the newest state when it can be, else the whole state.
import { COLLECTION_NAMES, type ClockState, type CollectionName, type Settings } from '../schemas/index.js';
import { sameJson } from '../json.js';
import type { Maps, Replacement } from './pending.js';
import type { Transaction } from './transaction.js';
import { NotADiff, type Pending } from './pending-write.js';
import type { CommitPipeline } from './commit.js';
import { ClockReading } from './clock.js';

/** What the diff reads: the newest state (committed plus pending), as a transaction sees it. */
interface NewestState {
  viewEntries(c: CollectionName): Iterable<[string, unknown]>;
  viewClock(): ClockState;
  newestSettings(): Settings;
}

export interface Target {
  maps: Maps;
  clock: ClockState;
  settings: Settings;
  /** Copy the maps before storing them whole (a snapshot stays reusable). */
  copy: boolean;
}

/**
 * The transaction that turns the newest state into `target`, records in the target's order: records that stay keep
 * their order, new ones come last. Throws NotADiff when that is not possible, or is larger than the target itself.
 * It depends on nothing else it reads, so run again on others' writes it is a diff against theirs.
 */
function diffTo(state: NewestState, target: Target): (tx: Transaction) => void {
  let total = 0;
  for (const c of COLLECTION_NAMES) total += target.maps[c].size;
  return (tx) => {
    for (const c of COLLECTION_NAMES) {
      const want = target.maps[c] as Map<string, unknown>;
      const order = want.keys();
      for (const [key, r] of state.viewEntries(c)) {
        if (!want.has(key)) {
          tx.delete(c, key);
          continue;
        }
        if (order.next().value !== key) throw new NotADiff(); // a record would move
        if (want.get(key) !== r) tx.put(c, want.get(key) as never);
      }
      for (let next = order.next(); !next.done; next = order.next()) tx.put(c, want.get(next.value) as never);
      if (tx.size > total) throw new NotADiff();
    }
    if (!sameJson(state.viewClock(), target.clock)) tx.setClock(target.clock);
    if (!sameJson(state.newestSettings(), target.settings)) tx.setSettings(target.settings);
  };
}

/** The target as a whole state to store. */
function wholeState(target: Target): Replacement {
  const maps = target.copy
    ? (Object.fromEntries(COLLECTION_NAMES.map((c) => [c, new Map(target.maps[c] as Map<string, unknown>)])) as unknown as Maps)
    : target.maps;
  return { maps, clock: target.clock, settings: target.settings };
}

/** The store's part that replaces or saves the whole state, through its commit pipeline. */
export class WholeStateWrites {
  constructor(private readonly pipeline: CommitPipeline) {}

  /** Stores the whole state as it is (a store seeded from fixtures is saved before the first request); false: `ifEmpty` found state stored. */
  async save(ifEmpty?: boolean): Promise<boolean> {
    const { pipeline } = this;
    await pipeline.flush();
    const { maps, clockState: clock, settingsState: settings } = pipeline.state;
    const p = pipeline.enqueue({ replacement: { maps, clock, settings }, ifEmpty, observe: false, scope: undefined, seq: 0, attempts: 0, state: 'pending' });
    await pipeline.settled(p);
    return !p.dropped;
  }

  /**
   * One change set when that is possible and smaller than the target itself (see diffTo), otherwise the whole
   * state; run again after others' writes, it is a diff against theirs or the whole state, never a refusal. Resolves
   * the mock clock's "now" (ISO) as the write read it: the replaced clock's, at the instant it was put in place.
   */
  async replaceWith(target: Target): Promise<string> {
    const diff = diffTo(this.pipeline, target);
    // "Now" as the write reads it, on the clock it puts in place: each run reads it anew, so the last run's stands.
    const now = () => new ClockReading(this.pipeline.time, { clock: target.clock }, this.pipeline.memo).nowIso();
    let at = '';
    const p: Pending = {
      fn: (tx) => {
        diff(tx);
        at = tx.now();
      },
      whole: () => {
        at = now();
        return wholeState(target);
      },
      observe: false,
      scope: undefined,
      seq: 0,
      attempts: 0,
      state: 'pending',
    };
    this.pipeline.run(p);
    await this.pipeline.settled(p);
    return at;
  }
}
