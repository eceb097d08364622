// How a shadow request reaches the target: node:http(s) from a worker thread (worker-transport.ts; a third of fetch's CPU
// per request), or a given fetch (a mock's in-process fetch, a test's stand-in). Either reads at most MAX_ANSWER_BYTES.

/** A target answer larger than this is not read (and not compared): shadow traffic holds bounded memory. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** What the target answered: its status, headers (lower-case names) and body text (null when over the bound). */
export interface TargetAnswer {
  status: number;
  headers: Record<string, string>;
  text: string | null;
}

export interface Outgoing {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
}

export interface Transport {
  send(req: Outgoing): Promise<TargetAnswer>;
  /** Lets go of what it holds (a worker, its connections). */
  close(): Promise<void>;
}

/** Sends with a fetch function (WHATWG). */
export function fetchTransport(fetchFn: (input: string, init: RequestInit) => Promise<Response>): Transport {
  return {
    send: async (req) => {
      const res = await fetchFn(req.url.href, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(req.timeoutMs),
      });
      return { status: res.status, headers: Object.fromEntries(res.headers), text: await boundedText(res) };
    },
    close: async () => {},
  };
}

/** The body as text, or null past MAX_ANSWER_BYTES (the rest is not read). */
async function boundedText(res: Response): Promise<string | null> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
