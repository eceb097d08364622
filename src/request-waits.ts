// What a request's waits stop on: the end of the sandbox it addresses (a delete or an expiry), so nothing a request
// waits for (a fault's delay or hang, a slow body either way) outlasts the sandbox it was sent to.
import type { Context } from 'koa';

/**
 * An end a wait can stop on: whether it came, and a way to hear of it. `onEnd` answers the function that stops the
 * hearing: a wait that is over lets go of its listener, so an ended wait holds nothing.
 */
export interface Ending {
  readonly ended: boolean;
  onEnd(listener: () => void): () => void;
}

/** Where the sandbox selector leaves the addressed sandbox's life. */
const ENDS = Symbol('the end of the addressed sandbox');

/** Marks `ctx` as addressed to a sandbox whose end is `life`'s. */
export function endsWith(ctx: Context, life: Ending): void {
  (ctx.state as { [ENDS]?: Ending })[ENDS] = life;
}

/** The end of the sandbox `ctx` addresses; undefined for the default mock. */
export function endOf(ctx: Context): Ending | undefined {
  return (ctx.state as { [ENDS]?: Ending })[ENDS];
}

/** The error a wait rejects with when its sandbox ended: the selector answers the request 404 `sandbox_not_found`. */
export class SandboxEnded extends Error {
  constructor() {
    super('the sandbox ended while the request waited');
    this.name = 'SandboxEnded';
  }
}

/** Waits `ms`, or until `end` comes (then rejects with SandboxEnded). */
export function sleep(ms: number, end?: Ending): Promise<void> {
  if (!end) return new Promise<void>((resolve) => setTimeout(resolve, ms));
  return until(new Promise<void>((resolve) => setTimeout(resolve, ms)), end);
}

/** `p`, or a rejection with SandboxEnded as soon as `end` comes (`p` is left to settle unobserved). */
export function until<T>(p: Promise<T>, end: Ending | undefined): Promise<T> {
  if (!end) return p;
  if (end.ended) return Promise.reject(new SandboxEnded());
  return new Promise<T>((resolve, reject) => {
    const off = end.onEnd(() => reject(new SandboxEnded()));
    p.then(
      (v) => (off(), resolve(v)),
      (e) => (off(), reject(e)),
    );
  });
}
