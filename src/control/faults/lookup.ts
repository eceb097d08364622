// The index of faults by method, then by operation or by the number of path segments: a request looks only at the
// faults that could match it, so fifty faults for other routes cost what none do.
import { operationOf } from './operation-of.js';

/** What the index needs of a fault. */
export interface Indexed {
  /** Order of addition: the first matching fault wins. */
  seq: number;
  /** An HTTP method in capitals, or '*'. */
  method: string;
  /** The path glob. */
  path: string;
  /** `match.operation`, when given. */
  operation?: string;
}

/** A fixed-width glob: its segments without `*`, by position, which a path must hold exactly to match. */
interface Fixed<T> {
  fault: T;
  /** Segment index and literal, the last segment first (the one that most often tells routes apart). */
  literals: [number, string][];
}

interface Bucket<T> {
  byOperation: Map<string, T[]>;
  /** Globs without `**`: exactly this many segments. */
  bySize: Map<number, Fixed<T>[]>;
  /** Globs with `**`. */
  variable: T[];
}

/** What a request no fault could match gets: one frozen empty list, not a new one each time. */
const NONE: readonly never[] = Object.freeze([]);

const push = <K, T>(map: Map<K, T[]>, key: K, value: T) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/**
 * Where each segment of a path starts, read once per request into one array the index keeps (lookups are synchronous):
 * `starts[i]` is the index of the first character of segment i, `starts[count]` one past the path's end plus one.
 * Only paths no wider than the widest fixed glob are read; a wider one can meet none of them.
 */
class Segments {
  private readonly starts: Int32Array;
  count = 0;
  private path = '';

  constructor(readonly widest: number) {
    this.starts = new Int32Array(widest + 1);
  }

  /** Reads `path`; false when it has more segments than the widest fixed glob. */
  read(path: string): boolean {
    const starts = this.starts;
    let n = 0;
    starts[0] = 0;
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
      if (++n >= this.widest) return false;
      starts[n] = i + 1;
    }
    this.count = n + 1;
    starts[n + 1] = path.length + 1;
    this.path = path;
    return true;
  }

  /** Whether segment i is exactly `lit` (compared in place: no segment is cut out). */
  is(i: number, lit: string): boolean {
    const start = this.starts[i];
    return this.starts[i + 1] - 1 - start === lit.length && this.path.startsWith(lit, start);
  }
}

export class FaultIndex<T extends Indexed> {
  /** None while there are no faults (a mock that never had one holds no map). */
  private buckets: Map<string, Bucket<T>> | undefined;
  /** Read only when some bucket holds fixed globs. */
  private segments: Segments | undefined;

  /** Rebuilds the index from the faults in order (faults change rarely; requests look up often). */
  rebuild(faults: readonly T[]): void {
    const buckets = faults.length > 0 ? new Map<string, Bucket<T>>() : undefined;
    let widest = 0;
    for (const f of faults) {
      let b = buckets!.get(f.method);
      if (!b) buckets!.set(f.method, (b = { byOperation: new Map(), bySize: new Map(), variable: [] }));
      const globSegments = f.path.split('/');
      if (f.operation !== undefined) push(b.byOperation, f.operation, f);
      else if (globSegments.includes('**')) b.variable.push(f);
      else {
        const literals = globSegments.flatMap((seg, i): [number, string][] => (seg.includes('*') ? [] : [[i, seg]])).reverse();
        push(b.bySize, globSegments.length, { fault: f, literals });
        widest = Math.max(widest, globSegments.length);
      }
    }
    this.buckets = buckets;
    this.segments = widest > 0 ? new Segments(widest) : undefined;
  }

  /**
   * The faults that could match a request, in the order they were added (most often none). `operation`: the one the
   * route table found for it, when the caller has routed already (the same as operationOf's, which is asked otherwise).
   */
  candidates(method: string, path: string, operation?: string | null): readonly T[] {
    const buckets = this.buckets;
    if (!buckets) return NONE;
    // Built without a closure, an array per bucket or a split path: with faults for other routes only, a request allocates nothing.
    let found: T[] | undefined;
    let lists = 0;
    let read: boolean | undefined;
    for (let k = 0; k < 2; k++) {
      const b = buckets.get(k === 0 ? method : '*');
      if (!b) continue;
      if (b.byOperation.size > 0) {
        if (operation === undefined) operation = operationOf(method, path);
        const list = operation === null ? undefined : b.byOperation.get(operation);
        if (list && list.length > 0) {
          found = found ? found.concat(list) : list;
          lists++;
        }
      }
      if (b.bySize.size > 0 && (read ??= this.segments!.read(path))) {
        const fixed = b.bySize.get(this.segments!.count);
        // Only the globs whose literal segments the path holds: those for other routes of the same width cost a compare.
        let hits: T[] | undefined;
        if (fixed) for (const x of fixed) if (this.holds(x.literals)) (hits ??= []).push(x.fault);
        if (hits) {
          found = found ? found.concat(hits) : hits;
          lists++;
        }
      }
      if (b.variable.length > 0) {
        found = found ? found.concat(b.variable) : b.variable;
        lists++;
      }
    }
    if (!found) return NONE;
    // Several lists were joined into a new array (never one the index holds): back in the order the faults were added.
    return lists === 1 ? found : found.sort((a, b) => a.seq - b.seq);
  }

  /** Whether the path last read holds each literal at its position. */
  private holds(literals: readonly [number, string][]): boolean {
    const segments = this.segments!;
    for (let j = 0; j < literals.length; j++) if (!segments.is(literals[j][0], literals[j][1])) return false;
    return true;
  }
}
