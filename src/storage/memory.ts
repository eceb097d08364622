// Memory storage: the store's own maps are the state, so persisting a change set is a no-op.
import type { DataFile } from '../schemas/index.js';
import type { ChangeSet, ChangeSetAdapter, CommittedState } from './change-sets.js';
import { documentAfter } from './lowdb-adapter.js';

/**
 * Keeps the state in memory only; every instance is independent. Writes copy and serialize nothing:
 * `read()` builds the document from the live store that last wrote through it (a second app created
 * on the same adapter starts from that state).
 */
export class MemoryAdapter implements ChangeSetAdapter {
  #data: DataFile | null = null;
  #live: CommittedState | null = null;

  async read(): Promise<DataFile | null> {
    return this.#live ? documentAfter(this.#live, []) : this.#data;
  }

  async write(data: DataFile): Promise<void> {
    this.#data = data;
    this.#live = null;
  }

  appendChangeSets(_group: readonly ChangeSet[], committed: CommittedState): void {
    this.#live = committed;
  }
}
