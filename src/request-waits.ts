// What a request's waits stop on: the end of the sandbox it addresses (a delete or an expiry), so nothing a request
// waits for (a fault's delay or hang, a slow body either way) outlasts the sandbox it was sent to.
import type { Context } from 'koa';

/** Where the sandbox selector leaves the addressed sandbox's life (its signal is made only when a wait asks for it). */
const ENDS = Symbol('the end of the addressed sandbox');

/** Marks `ctx` as addressed to a sandbox whose end aborts `life.signal`. */
export function endsWith(ctx: Context, life: { readonly signal: AbortSignal }): void {
  (ctx.state as { [ENDS]?: { readonly signal: AbortSignal } })[ENDS] = life;
}

/** The signal that aborts when the sandbox `ctx` addresses ends; undefined for the default mock. */
export function endOf(ctx: Context): AbortSignal | undefined {
  return (ctx.state as { [ENDS]?: { readonly signal: AbortSignal } })[ENDS]?.signal;
}

/** The error a wait rejects with when its sandbox ended: the selector answers the request 404 `sandbox_not_found`. */
class SandboxEnded extends Error {
  constructor() {
    super('the sandbox ended while the request waited');
    this.name = 'SandboxEnded';
  }
}

/** Waits `ms`, or until `signal` aborts (then rejects with SandboxEnded). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise<void>((resolve) => setTimeout(resolve, ms));
  return until(new Promise<void>((resolve) => setTimeout(resolve, ms)), signal);
}

/** `p`, or a rejection with SandboxEnded as soon as `signal` aborts (`p` is left to settle unobserved). */
export function until<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new SandboxEnded());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new SandboxEnded());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}
