// What a connection a server broke looks like to a fetch caller in process, as undici shows it over a socket.
import type { ServerResponse } from 'node:http';
import { RESET, writtenOf } from './transport.js';

function socketError(message: string): Error {
  return Object.assign(new Error(message), { code: 'UND_ERR_SOCKET' });
}

function headerPairs(res: ServerResponse): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(res.getHeaders())) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) out.push([k, x]);
    else out.push([k, String(v)]);
  }
  return out;
}

/**
 * The answer to a request whose response was destroyed: before its headers, fetch rejects with TypeError('fetch
 * failed') whose cause is a socket error (undici's "other side closed"); after them, the Response arrives and reading its
 * body fails with TypeError('terminated'). Any other error is passed on as it is.
 */
export function brokenAnswer(err: unknown, res: ServerResponse | undefined, method: string): Response {
  if ((err as { code?: string }).code !== RESET) throw err;
  if (!res?.headersSent) throw new TypeError('fetch failed', { cause: socketError('other side closed') });
  // The bytes written before the connection closed.
  const written = writtenOf(res);
  const body =
    method === 'HEAD'
      ? null
      : new ReadableStream<Uint8Array>({
          pull(controller) {
            // The part that arrived, then the failure, as a socket closing mid-body shows it.
            if (written.length > 0 && controller.desiredSize !== null) controller.enqueue(new Uint8Array(written));
            controller.error(new TypeError('terminated', { cause: socketError('other side closed') }));
          },
        });
  return new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers: headerPairs(res) });
}
