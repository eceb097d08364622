// How a shadow request reaches the target: node:http(s) with kept-alive connections (a third of fetch's CPU per request),
// or a given fetch (a mock's in-process fetch, a test's stand-in). Either reads at most MAX_ANSWER_BYTES of the answer.
import http from 'node:http';
import https from 'node:https';

/** A target answer larger than this is not read (and not compared): shadow traffic holds bounded memory. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** What the target answered: its status, headers (lower-case names) and body text (null when over the bound). */
export interface TargetAnswer {
  status: number;
  headers: Record<string, string>;
  text: string | null;
}

interface Outgoing {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
}

export type Transport = (req: Outgoing) => Promise<TargetAnswer>;

/** Sends with a fetch function (WHATWG). */
export function fetchTransport(fetchFn: (input: string, init: RequestInit) => Promise<Response>): Transport {
  return async (req) => {
    const res = await fetchFn(req.url.href, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await boundedText(res) };
  };
}

/** Sends with node:http or node:https, at most `sockets` connections kept alive to the target. */
export function httpTransport(sockets: number): Transport {
  const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: sockets }), 'https:': new https.Agent({ keepAlive: true, maxSockets: sockets }) };
  return (req) =>
    new Promise((resolve, reject) => {
      const send = req.url.protocol === 'https:' ? https.request : http.request;
      const out = send(req.url, { method: req.method, headers: req.headers, agent: agents[req.url.protocol as 'http:'], timeout: req.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let over = false;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) over = true;
          else chunks.push(c);
        });
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers, text: over ? null : Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      });
      out.on('timeout', () => out.destroy(Object.assign(new Error('timed out'), { code: 'TimeoutError' })));
      out.on('error', reject);
      out.end(req.body);
    });
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
