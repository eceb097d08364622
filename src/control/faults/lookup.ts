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
  candidates(method: string, path: string): T[] {
    if (!this.buckets) return [];
    let lists: T[][] | undefined;
    let parts: string[] | undefined;
    let operation: string | null | undefined;
    for (const b of [this.buckets.get(method), this.buckets.get('*')]) {
      if (!b) continue;
      const add = (list: T[] | undefined) => list && list.length > 0 && (lists ??= []).push(list);
      if (b.byOperation.size > 0) add(b.byOperation.get((operation ??= operationOf(method, path)) ?? ''));
      if (b.bySize.size > 0) {
        const fixed = b.bySize.get(segmentCount(path));
        // Only the globs whose literal segments the path holds: those for other routes of the same width cost a compare.
        if (fixed) add(fixed.filter((x) => x.literals.every(([i, lit]) => (parts ??= path.split('/'))[i] === lit)).map((x) => x.fault));
      }
      add(b.variable);
    }
    if (!lists) return [];
    return lists.length === 1 ? lists[0] : lists.flat().sort((a, b) => a.seq - b.seq);
  }
}
