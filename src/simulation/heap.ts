// A binary min-heap of pending events by (due time, rank, scheduling order): O(log n) to add or take the next one.

export interface HeapEntry {
  at: number;
  /** The stored record the entry was made for (an entry is current while the store holds this very object). */
  record: object;
  /** Within one millisecond, lower ranks go first (a day's reset before that day's first spend). */
  rank: number;
  seq: number;
  key: string;
}

const before = (a: HeapEntry, b: HeapEntry): boolean => a.at < b.at || (a.at === b.at && (a.rank < b.rank || (a.rank === b.rank && a.seq < b.seq)));

export class EventHeap {
  private items: HeapEntry[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): HeapEntry | undefined {
    return this.items[0];
  }

  push(e: HeapEntry): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  pop(): HeapEntry | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l], a[m])) m = l;
        if (r < a.length && before(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items = [];
  }
}
