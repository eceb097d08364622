// Recipe: a client's retry logic, the part a test wants to see fail the way production does. It retries 5xx, 429 and
// network errors with exponential backoff, waits what Retry-After says, and gives up on a hang through a timeout.
export interface RetryOptions {
  /** Attempts in all (the first included). */
  attempts: number;
  /** The first backoff; each next one doubles. */
  backoffMs: number;
  /** One attempt's time limit: a server that hangs is given up on. */
  timeoutMs: number;
  /** How the client waits (production: a timer; a test passes the mock clock's advance). */
  sleep(ms: number): Promise<unknown>;
}

/** Whether an answer is worth another attempt: overload and server faults, never a 4xx the client caused. */
const retryable = (status: number) => status === 429 || status >= 500;

/** Retry-After in seconds as ms, or undefined (an HTTP date is not used by this service). */
function retryAfterMs(res: Response): number | undefined {
  const s = Number(res.headers.get('retry-after'));
  return res.headers.has('retry-after') && Number.isFinite(s) && s >= 0 ? s * 1000 : undefined;
}

/** GETs `url` as JSON, retrying as RetryOptions says; the last failure is thrown. */
export async function getJson(url: string, headers: Record<string, string>, options: RetryOptions): Promise<unknown> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    let wait = options.backoffMs * 2 ** (attempt - 1);
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs) });
      if (res.ok) return await res.json();
      lastError = new Error(`HTTP ${res.status}`);
      if (!retryable(res.status)) throw lastError;
      wait = retryAfterMs(res) ?? wait;
    } catch (err) {
      // A timeout (hang), a reset, a truncated or malformed body: try again, unless the answer was final.
      if (err === lastError) throw err;
      lastError = err;
    }
    if (attempt < options.attempts) await options.sleep(wait);
  }
  throw lastError;
}
