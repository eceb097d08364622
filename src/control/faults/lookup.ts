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
  literals: [number, string][];
}

interface Bucket<T> {
  byOperation: Map<string, T[]>;
  /** Globs without `**`: exactly this many segments. */
  bySize: Map<number, Fixed<T>[]>;
  /** Globs with `**`. */
  variable: T[];
}

const segmentCount = (path: string): number => {
  let n = 1;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
};

/** What a request no fault could match gets: one frozen empty list, not a new one each time. */
const NONE: readonly never[] = Object.freeze([]);

/** Whether the path's segments hold each literal at its position. */
function holds(parts: readonly string[], literals: readonly [number, string][]): boolean {
  for (const [i, lit] of literals) if (parts[i] !== lit) return false;
  return true;
}

const push = <K, T>(map: Map<K, T[]>, key: K, value: T) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

export class FaultIndex<T extends Indexed> {
  /** None while there are no faults (a mock that never had one holds no map). */
  private buckets: Map<string, Bucket<T>> | undefined;

  /** Rebuilds the index from the faults in order (faults change rarely; requests look up often). */
  rebuild(faults: readonly T[]): void {
    const buckets = faults.length > 0 ? new Map<string, Bucket<T>>() : undefined;
    this.buckets = buckets;
    for (const f of faults) {
      let b = buckets!.get(f.method);
      if (!b) buckets!.set(f.method, (b = { byOperation: new Map(), bySize: new Map(), variable: [] }));
      if (f.operation !== undefined) push(b.byOperation, f.operation, f);
      else if (f.path.split('/').includes('**')) b.variable.push(f);
      else {
        const literals = f.path.split('/').flatMap((seg, i): [number, string][] => (seg.includes('*') ? [] : [[i, seg]]));
        push(b.bySize, segmentCount(f.path), { fault: f, literals });
      }
    }
  }

  /** The faults that could match a request, in the order they were added (most often none). */
  candidates(method: string, path: string): readonly T[] {
    const buckets = this.buckets;
    if (!buckets) return NONE;
    // Built without a closure or an array per bucket: with faults for other routes only, a request allocates nothing.
    let found: T[] | undefined;
    let lists = 0;
    let parts: string[] | undefined;
    let operation: string | null | undefined;
    for (let k = 0; k < 2; k++) {
      const b = buckets.get(k === 0 ? method : '*');
      if (!b) continue;
      if (b.byOperation.size > 0) {
        const list = b.byOperation.get((operation ??= operationOf(method, path)) ?? '');
        if (list && list.length > 0) {
          found = found ? found.concat(list) : list;
          lists++;
        }
      }
      const fixed = b.bySize.size > 0 ? b.bySize.get(segmentCount(path)) : undefined;
      if (fixed) {
        // Only the globs whose literal segments the path holds: those for other routes of the same width cost a compare.
        let hits: T[] | undefined;
        for (const x of fixed) if (holds((parts ??= path.split('/')), x.literals)) (hits ??= []).push(x.fault);
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
}
