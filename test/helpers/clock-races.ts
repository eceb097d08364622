// Clock moves that land between a write and its answer: what tests of "a write answers the clock it left" interpose.
import { clockMove } from '../../src/domain/clock.js';
import type { MockApp } from '../../src/app.js';

/** Makes the store's next write be followed, before anyone answers, by a move of the clock `ms` on (one time only). */
export function nextWriteMovedAfter(mock: MockApp, ms: number): void {
  const store = mock.store as unknown as { transact: (...args: unknown[]) => Promise<unknown> };
  const own = store.transact.bind(mock.store);
  store.transact = async (...args) => {
    store.transact = own;
    const out = await own(...args);
    await own(clockMove((c) => c.advanced(ms)));
    return out;
  };
}
