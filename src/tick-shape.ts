// Keeps one of Node's own tick objects alive for the life of the process, so V8 never forgets the shape ticks share.
import { executionAsyncResource } from 'node:async_hooks';

// process.nextTick builds each tick as an object literal with computed (symbol) keys, and V8 holds the hidden classes of
// those objects only weakly, keeping them for two full collections after their last use. A third in a row that finds
// no tick alive (a server gone quiet between bursts of load) frees them; the next tick gets new ones, the literal's
// property feedback turns megamorphic and stays so, and from then on every tick defines its properties in V8's runtime:
// 300 to 600 ns a tick, about 5 µs of each answered GET. One tick held here keeps its hidden classes alive, so the
// feedback stays monomorphic. Inside a tick's callback the current async resource is that tick object.
let held: object | null = null;
let asked = false;

/** Holds one tick object from the next tick on (once a process; later calls do nothing). */
export function holdTickShape(): void {
  if (asked) return;
  asked = true;
  process.nextTick(() => {
    held = executionAsyncResource();
  });
}

/** The tick object held, or null before the first tick ran (for tests). */
export const heldTick = (): object | null => held;
