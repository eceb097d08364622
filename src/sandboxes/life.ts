// A sandbox's life on one instance: the requests in flight keep it alive, and its end is one instant after which its
// store refuses every write, the waits of its requests stop, and whoever ended it waits until they are answered.
import type { Ending } from '../request-waits.js';
import { SandboxGone, type ChangeSet, type ChangeSetAdapter, type CommittedState, type Rebase } from '../storage/index.js';

/** A whole stored document, as the adapter's `write` takes it. */
type DataFile = Parameters<ChangeSetAdapter['write']>[0];

export class SandboxLife implements Ending {
  /** Requests handed to the sandbox and not yet answered: while there are any, the sandbox does not expire. */
  inFlight = 0;
  /** Set at the end's instant (a delete, an expiry, the server closing). */
  ended = false;
  /**
   * What its requests wait for (a body being read, a fault's delay or hang, a slow body) and stop waiting for at the
   * end: one listener per wait, as many as the requests in flight. Made for the first wait and let go once the last is
   * over, so a sandbox nobody waits on holds nothing for it (an AbortSignal per sandbox held about 0.7 KB for ever).
   */
  #waits: Set<() => void> | undefined;
  #drained: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  onEnd(listener: () => void): () => void {
    const waits = (this.#waits ??= new Set());
    // A listener is called once, so the same function given twice is two waits: each gets its own entry.
    const entry = () => listener();
    waits.add(entry);
    return () => {
      waits.delete(entry);
      if (waits.size === 0 && this.#waits === waits) this.#waits = undefined;
    };
  }

  enter(): void {
    this.inFlight++;
  }

  /**
   * A request was answered. The last one of an ended sandbox lets the end go on a turn later, once the answers decided
   * in this turn have been written: a request that stored before the end is answered before the end's own answer.
   */
  leave(): void {
    if (--this.inFlight === 0 && this.#wake) setImmediate(this.#wake);
  }

  /** Ends the sandbox (once); resolves when every request in flight at that instant has been answered. */
  end(): Promise<void> {
    if (!this.#drained) {
      this.ended = true;
      const waits = this.#waits;
      this.#waits = undefined;
      if (waits) for (const listener of waits) listener();
      this.#drained = this.inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.#wake = resolve));
    }
    return this.#drained;
  }
}

/**
 * A sandbox's own storage behind its liveness: every commit checks, as it commits, that the sandbox has not ended
 * (refused with SandboxGone: nothing is stored, the request answers 404), as a shared sandbox's commit does on its row.
 */
export class LiveAdapter implements ChangeSetAdapter {
  constructor(
    private readonly inner: ChangeSetAdapter,
    private readonly life: SandboxLife,
    private readonly id: string,
  ) {}

  read(): Promise<DataFile | null> {
    return this.inner.read();
  }

  async write(data: DataFile): Promise<void> {
    this.check();
    return this.inner.write(data);
  }

  appendChangeSets(group: readonly ChangeSet[], committed: CommittedState, rebase?: Rebase): void | Promise<void> {
    this.check();
    return this.inner.appendChangeSets(group, committed, rebase);
  }

  private check(): void {
    if (this.life.ended) throw new SandboxGone(this.id);
  }
}
