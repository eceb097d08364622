// Fault injection: per-instance rules that answer a matching v3 request with a status/body, or delay it, N times or until cleared.
import { compileGlob, type GlobMatcher } from '../glob.js';

export interface FaultSpec {
  /** HTTP method, or '*' for any. */
  method: string;
  /** A path glob: `*` matches one segment, `**` any number; no query string. */
  path: string;
  /** Answer with this status instead of handling the request. */
  status?: number;
  /** The injected body (JSON); absent means an empty body. */
  body?: unknown;
  /** Wait this long first; without `status` the request is then handled normally. */
  delay_ms?: number;
  /** Apply to the next N matching requests; absent = until cleared. */
  times?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Matches left (null = unlimited). */
  remaining: number | null;
  /** How many requests it has hit so far. */
  hits: number;
}

/** The registry's whole state: what snapshot() answers and restore() takes. */
export interface FaultState {
  /** The number the next fault's id gets. */
  next_id: number;
  faults: Fault[];
}

export class FaultRegistry {
  private faults: (Fault & { re: GlobMatcher })[] = [];
  private counter = 0;

  add(spec: FaultSpec): Fault {
    const fault = { ...spec, method: spec.method.toUpperCase(), id: `flt_${++this.counter}`, remaining: spec.times ?? null, hits: 0, re: compileGlob(spec.path) };
    this.faults.push(fault);
    return publicView(fault);
  }

  list(): Fault[] {
    return this.faults.map(publicView);
  }

  /** The faults with their remaining counts, as plain JSON (a repro bundle keeps it; restore() brings it back). */
  snapshot(): FaultState {
    return { next_id: this.counter + 1, faults: this.list() };
  }

  /** Replaces every fault with those of a snapshot, remaining counts and hits included; new ids continue from its `next_id`. */
  restore(state: FaultState): void {
    this.faults = state.faults.map((f) => ({ ...f, re: compileGlob(f.path) }));
    this.counter = state.next_id - 1;
  }

  clear(): number {
    const n = this.faults.length;
    this.faults = [];
    return n;
  }

  /** The first fault that matches, consumed by one use; exhausted faults disappear. */
  take(method: string, path: string): Fault | undefined {
    const i = this.faults.findIndex((f) => (f.method === '*' || f.method === method) && f.re.test(path));
    if (i < 0) return undefined;
    const f = this.faults[i];
    f.hits++;
    if (f.remaining !== null && --f.remaining <= 0) this.faults.splice(i, 1);
    return publicView(f);
  }
}

function publicView(f: Fault & { re?: GlobMatcher }): Fault {
  const { re: _re, ...rest } = f;
  return { ...rest };
}
