// What the CLI writes to the terminal: one-line failures, progress on a TTY, and summary lines with figures.
import type { StorageReporter } from './storage/index.js';
import type { SimulationProgress } from './simulation/index.js';

/** The innermost cause's message (a 503 storage_unavailable carries the disk's error as its cause). */
export function rootCause(err: unknown): string {
  let e = err as { cause?: unknown; message?: string } | undefined;
  while (e && typeof e === 'object' && e.cause !== undefined) e = e.cause as typeof e;
  return e?.message ?? String(e);
}

export function fail(message: string, code = 1): never {
  process.stderr.write(`project-runtime-mock: ${message}\n`);
  process.exit(code);
}

/** Long work (loading a big file, compaction) shows progress on a TTY and ends with one summary line; warnings are one line each. */
export function reporter(): StorageReporter {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  let shown = false;
  const line = (text: string) => {
    process.stderr.write(`${shown ? '\r\x1b[K' : ''}project-runtime-mock: ${text}\n`);
    shown = false;
  };
  return {
    progress: tty
      ? (text) => {
          const now = Date.now();
          if (now - last < 200) return;
          last = now;
          process.stderr.write(`\r\x1b[K${text}`);
          shown = true;
        }
      : undefined,
    summary: line,
    warn: line,
  };
}

/** A long POST /_mock/simulation/run shows its progress on a TTY and ends with one summary line. */
export function simulationProgress(report: StorageReporter) {
  return (p: SimulationProgress & { done: boolean }) => {
    const rate = p.elapsed_ms > 0 ? Math.round((p.executed / p.elapsed_ms) * 1000) : p.executed;
    if (!p.done) report.progress?.(`simulation: ${p.executed.toLocaleString('en')} events, at ${p.at}${p.until ? ` of ${p.until}` : ''}`);
    else
      report.summary?.(
        `simulation: ${p.executed.toLocaleString('en')} events in ${(p.elapsed_ms / 1000).toFixed(1)} s (${rate.toLocaleString('en')}/s), up to ${p.at}`,
      );
  };
}
