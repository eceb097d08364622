// One order and one byte budget for the journals of every mock a server holds (its default mock and each sandbox): many
// mocks cannot hold many times the memory, and past the budget the oldest entry of all goes, whichever journal holds it.
import type { StoredEntry } from './journal-entry.js';

/** Entries let go kept for reuse, at most: a drop of many at once makes no more than this many wait. */
const SPARE_MAX = 16;

/**
 * What the order asks of a journal. Its entries live in the shared order, so adding one touches no array of its own;
 * the journal keeps only its counts and where its entries start.
 */
export interface OrderedJournal {
  /** A position in the order at or before its oldest entry held (the order moves it when it rebuilds). */
  first: number;
  /** The budget let its oldest entry go, which was this size. */
  lostOldest(size: number): void;
}

export class JournalBudget {
  private total = 0;
  private held = 0;
  /**
   * The entry added last, by any journal: the one a new entry compares its headers with. Consecutive requests look
   * alike whichever mock they go to, and this entry is still in the processor's cache, unlike the last of a journal
   * that a hundred sandboxes take turns with.
   */
  newest: StoredEntry | undefined;
  /**
   * Every entry in the order added, oldest first from `head` to before `end`: the entry, its journal and its size at the
   * same index of three arrays. A slot let go holds undefined until the order is rebuilt. The arrays are kept and
   * reused (rebuilt in place, grown only when full): entries outlive many requests, and arrays made anew at every
   * rebuild or growth would be copied and promoted by the collector as they are.
   */
  private stored: (StoredEntry | undefined)[] = [];
  /** Entries let go, emptied, for new entries to fill (never the newest: a new entry compares itself with it). */
  private readonly spare: StoredEntry[] = [];
  private owners: (OrderedJournal | undefined)[] = [];
  private sizes: number[] = [];
  private head = 0;
  private end = 0;

  constructor(readonly bytes: number) {}

  /** Entries held by every journal together. */
  get entries(): number {
    return this.held;
  }

  /** Bytes held by every journal together. */
  get used(): number {
    return this.total;
  }

  /** Slots the order holds, let-go ones included: under 1,024 or twice the entries held, after each add. */
  get slots(): number {
    return this.end;
  }

  /** Room for this many slots before the arrays grow (they never shrink). */
  get capacity(): number {
    return this.stored.length;
  }

  /** An entry let go, emptied, to fill with a new record; undefined when none waits. */
  reuse(): StoredEntry | undefined {
    return this.spare.pop();
  }

  /** Entries let go and waiting to be filled again (at most 16). */
  get spares(): number {
    return this.spare.length;
  }

  private letGo(entry: StoredEntry): void {
    if (entry === this.newest || this.spare.length >= SPARE_MAX) return;
    entry.empty();
    this.spare.push(entry);
  }

  /** Stores a journal's new entry last in the order and answers its position (settle() then applies the budget). */
  append(journal: OrderedJournal, entry: StoredEntry): number {
    this.newest = entry;
    this.total += entry.size;
    this.held++;
    if (this.end === this.stored.length) this.grow();
    const at = this.end++;
    this.stored[at] = entry;
    this.owners[at] = journal;
    this.sizes[at] = entry.size;
    return at;
  }

  /** Doubles the arrays (1,024 slots at first), filled so that they stay packed. */
  private grow(): void {
    const size = Math.max(1024, 2 * this.stored.length);
    const larger = <T>(from: T[], fill: T): T[] => {
      const to = new Array<T>(size).fill(fill);
      for (let i = 0; i < this.end; i++) to[i] = from[i];
      return to;
    };
    this.stored = larger(this.stored, undefined);
    this.owners = larger(this.owners, undefined);
    this.sizes = larger(this.sizes, 0);
  }

  /** Past the budget the oldest entries of all go (never the newest); then the order drops its let-go slots if many. */
  settle(): void {
    this.evict();
    const slots = this.end;
    if (slots >= 1024 && slots >= 2 * this.held) this.rebuild();
  }

  /** An entry held grew by `size` (shadow mode added its drift): past the budget the oldest entries of all go. */
  grew(position: number, size: number): void {
    this.sizes[position] += size;
    this.total += size;
    this.evict();
  }

  private evict(): void {
    const last = this.end - 1;
    while (this.total > this.bytes && this.head < last) {
      const at = this.head++;
      const owner = this.owners[at];
      if (owner === undefined) continue;
      const size = this.sizes[at];
      this.letGo(this.stored[at] as StoredEntry);
      this.stored[at] = this.owners[at] = undefined;
      this.total -= size;
      this.held--;
      owner.first = this.head;
      owner.lostOldest(size);
    }
  }

  /** The position of the journal's oldest entry held (it holds one), moving its `first` there. */
  oldest(journal: OrderedJournal): number {
    let at = journal.first;
    while (at < this.end && this.owners[at] !== journal) at++;
    // A position past its oldest entry would be a broken invariant: an error, never a loop past the order's end.
    if (at >= this.end) throw new Error('journal order: no entry of the journal at or after its first position');
    return (journal.first = at);
  }

  /** Lets the entry at `position` go (its journal's own bounds or a clear); answers its size. */
  remove(position: number): number {
    const size = this.sizes[position];
    this.total -= size;
    this.held--;
    this.letGo(this.stored[position] as StoredEntry);
    this.stored[position] = this.owners[position] = undefined;
    return size;
  }

  /** The entry at `position` (one held), for a reader that is done with it before the next entry is added. */
  entryAt(position: number): StoredEntry {
    return this.stored[position] as StoredEntry;
  }

  /**
   * The positions of the journal's entries with an id above `after` (all without it), newest first: read back from the
   * newest to the first entry at or below `after`, so a poller pays for the order's slots since its last entry, and a
   * whole read for the slots from the journal's first, at most the budget's.
   */
  private since(journal: OrderedJournal, after: number): number[] {
    const out: number[] = [];
    for (let at = this.end - 1; at >= journal.first; at--) {
      if (this.owners[at] !== journal) continue;
      if ((this.stored[at] as StoredEntry).id <= after) break;
      out.push(at);
    }
    return out;
  }

  /** The journal's entries with an id above `after` (all without it), oldest first. */
  entriesOf(journal: OrderedJournal, after = -Infinity): StoredEntry[] {
    return this.since(journal, after)
      .reverse()
      .map((at) => this.stored[at] as StoredEntry);
  }

  /** The position of the journal's entry `id` (read back from the newest, so recent ones are found soonest), or -1. */
  find(journal: OrderedJournal, id: number): number {
    const newer = this.since(journal, id - 1);
    const at = newer[newer.length - 1];
    return at !== undefined && (this.stored[at] as StoredEntry).id === id ? at : -1;
  }

  /** The positions of the journal's entries (what a clear lets go). */
  positions(journal: OrderedJournal): number[] {
    return this.since(journal, -Infinity);
  }

  /**
   * Keeps only the held slots, in order, moved down in place to the arrays' start, and moves each journal's `first` to
   * its oldest; the slots after them are emptied, so they hold no entry or journal.
   */
  private rebuild(): void {
    const { stored, owners, sizes } = this;
    const seen = new Set<OrderedJournal>();
    let to = 0;
    for (let at = this.head; at < this.end; at++) {
      const owner = owners[at];
      if (owner === undefined) continue;
      if (!seen.has(owner)) {
        seen.add(owner);
        owner.first = to;
      }
      stored[to] = stored[at];
      owners[to] = owner;
      sizes[to] = sizes[at];
      to++;
    }
    for (let at = to; at < this.end; at++) stored[at] = owners[at] = undefined;
    this.end = to;
    this.head = 0;
  }
}
