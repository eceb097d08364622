// A sandbox's life on one instance: the requests in flight keep it alive, and its end is one instant after which its
// store refuses every write, the waits of its requests stop, and whoever ended it waits until they are answered.
import { setMaxListeners } from 'node:events';
import { SandboxGone, type ChangeSet, type ChangeSetAdapter, type CommittedState, type Rebase } from '../storage/index.js';

/** A whole stored document, as the adapter's `write` takes it. */
type DataFile = Parameters<ChangeSetAdapter['write']>[0];

export class SandboxLife {
  /** Requests handed to the sandbox and not yet answered: while there are any, the sandbox does not expire. */
  inFlight = 0;
  /** Set at the end's instant (a delete, an expiry, the server closing). */
  ended = false;
  #controller: AbortController | undefined;
  #drained: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  /** Aborted at the end: what its requests wait for (a fault's delay or hang, a slow body either way) stops waiting. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      // One listener per waiting request: as many as the requests in flight, which the server's connections bound.
      setMaxListeners(0, this.#controller.signal);
    }
    return this.#controller.signal;
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
      this.#controller?.abort();
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
