// Executing events in time order up to a time, or until no run has work left (removing history as it falls due): bounded, with progress.
import { performance } from 'node:perf_hooks';
import type { Transaction } from '../storage/index.js';
import type { SimEventRecord } from '../schemas/index.js';
import type { EngineFace } from './engine.js';

export interface SimulationProgress {
  executed: number;
  /** The due time of the last executed event. */
  at: string;
  until: string | null;
  elapsed_ms: number;
}

/** More events than the bound: the caller rolls back and answers 422. */
export class TooManyEvents extends Error {}

export interface DrainOptions {
  /** Execute events due up to this time (inclusive)... */
  until: number | null;
  /** ...as each event's own write checks it (run again after a conflict, it picks the event anew). */
  dueBy: (tx: Transaction) => number;
  /** ...or, instead, while any run has a pending event. */
  idle: boolean;
  untilIso: string | null;
  maxEvents: number;
  onProgress?(p: SimulationProgress & { done: boolean }): void;
}

/** What the drain's writes executed: one slot per write, the event it last picked (kept up to date when it runs again). */
export type Picks = (SimEventRecord | undefined)[];

/** How many events picks hold, by kind, and the due time of the last one (-Infinity: none). */
export function tally(picks: Picks): { executed: number; byKind: Record<string, number>; lastAt: number } {
  const byKind: Record<string, number> = {};
  let executed = 0;
  let lastAt = -Infinity;
  for (const ev of picks) {
    if (!ev) continue;
    executed++;
    byKind[ev.kind] = (byKind[ev.kind] ?? 0) + 1;
    lastAt = Math.max(lastAt, Date.parse(ev.at));
  }
  return { executed, byKind, lastAt };
}

export function drain(engine: EngineFace, o: DrainOptions): Picks {
  const picks: Picks = [];
  let executed = 0;
  let lastAt = -Infinity;
  const started = performance.now();
  let reported = started;
  for (let ev = engine.peek(); ev; ev = engine.peek()) {
    const at = Date.parse(ev.at);
    if (o.idle ? !engine.runWorkPending : at > o.until!) break;
    if (executed >= o.maxEvents) throw new TooManyEvents();
    // Simulated history due for removal goes at the time it falls due, before the events after it.
    if (at >= engine.history.dueAt()) engine.history.removeDue(at);
    const slot = picks.push(undefined) - 1;
    // Its write checks again that the event it picks is due: the loop stops if it was not.
    if (!engine.executeNext(o.dueBy, (_, picked) => (picks[slot] = picked))) break;
    executed++;
    lastAt = at;
    // About four times a second, checked every 1024 events so the clock is not read per event.
    if (o.onProgress && (executed & 1023) === 0 && performance.now() - reported >= 250) {
      reported = performance.now();
      o.onProgress({ executed, at: ev.at, until: o.untilIso, elapsed_ms: Math.round(reported - started), done: false });
    }
  }
  const end = o.idle ? lastAt : o.until!;
  if (end >= engine.history.dueAt()) engine.history.removeDue(end);
  // Long work ends with a summary: a second or more, or ten thousand events.
  if (o.onProgress && (performance.now() - started >= 1000 || executed >= 10_000)) {
    o.onProgress({ executed, at: new Date(lastAt).toISOString(), until: o.untilIso, elapsed_ms: Math.round(performance.now() - started), done: true });
  }
  return picks;
}
