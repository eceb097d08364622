// One byte budget for the journals of every mock a server holds (its default mock and each sandbox): many mocks cannot
// hold many times the memory. Past the budget the oldest entry of all goes, whichever journal holds it.
import type { Stored } from './journal-types.js';

/** What the budget asks of a journal. */
export interface BudgetedJournal {
  /** Whether the entry with this id is still held. */
  holds(id: number): boolean;
  /** Drops its oldest entry when that is `id` (the budget's oldest of all); answers whether it did. */
  dropOldest(id: number): boolean;
}

export class JournalBudget {
  private total = 0;
  /**
   * The entry added last, by any journal: the one a new entry compares its headers with. Consecutive requests look
   * alike whichever mock they go to, and this entry is still in the processor's cache, unlike the last of a journal
   * that a hundred sandboxes take turns with.
   */
  newest: Stored | undefined;
  private held = 0;
  /**
   * Every entry in the order added, oldest first from `head` (each journal's entries are in this order too): its
   * journal and its id at the same index of two arrays, rather than an object per entry.
   */
  private journals: BudgetedJournal[] = [];
  private ids: number[] = [];
  private head = 0;

  constructor(readonly bytes: number) {}

  /** Entries held by every journal together. */
  get entries(): number {
    return this.held;
  }

  /** Bytes held by every journal together. */
  get used(): number {
    return this.total;
  }

  /** A journal stored an entry: past the budget the oldest entries of all go (never the one just added). */
  added(journal: BudgetedJournal, entry: Stored): void {
    this.newest = entry;
    this.total += entry.size;
    this.held++;
    this.journals.push(journal);
    this.ids.push(entry.id);
    this.evict();
    this.compact();
  }

  /** An entry held grew (shadow mode added its drift): past the budget the oldest entries of all go. */
  grew(size: number): void {
    this.total += size;
    this.evict();
  }

  /** Past the budget, the oldest entries of all go (never the newest). */
  private evict(): void {
    while (this.total > this.bytes && this.head < this.ids.length - 1) {
      const journal = this.journals[this.head];
      this.journals[this.head] = undefined as never;
      journal.dropOldest(this.ids[this.head++]);
    }
  }

  /** A journal let entries go (its own bounds, a clear, a sandbox that went). */
  released(size: number, count: number): void {
    this.total -= size;
    this.held -= count;
  }

  /** Slots the order holds, let-go ones before `head` included: about four times the entries held at most, or 2,048. */
  get slots(): number {
    return this.ids.length;
  }

  /**
   * Entries that left on their own stay in the order until they outnumber the held ones, and then it is rebuilt; the
   * slots of entries the budget let go are cut off once they outnumber the rest. Both keep add() O(1) amortised and
   * the order's memory bounded by what is held, not by the requests ever journalled.
   */
  private compact(): void {
    const length = this.ids.length - this.head;
    if (length >= 1024 && length >= 2 * this.held) return this.rebuild();
    if (this.head < 1024 || this.head < length) return;
    this.journals = this.journals.slice(this.head);
    this.ids = this.ids.slice(this.head);
    this.head = 0;
  }

  private rebuild(): void {
    const journals: BudgetedJournal[] = [];
    const ids: number[] = [];
    for (let i = this.head; i < this.ids.length; i++) {
      if (!this.journals[i].holds(this.ids[i])) continue;
      journals.push(this.journals[i]);
      ids.push(this.ids[i]);
    }
    this.journals = journals;
    this.ids = ids;
    this.head = 0;
  }
}
