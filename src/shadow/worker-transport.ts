// Shadow requests sent with node:http(s) from a worker thread of their own: the server's http and stream code then never
// also serves an outgoing client in the same isolate, where the two kinds of socket made every answered request slower.
import { Worker } from 'node:worker_threads';
import type { Outgoing, TargetAnswer, Transport } from './transport.js';

/** What the worker posts back for request `id`: its answer, or the failure's code and name (never its message). */
type Reply = { id: number; answer: TargetAnswer } | { id: number; failed: { code?: string; name?: string } };

/**
 * The worker's program. It runs from its source text (eval), so it uses only its arguments and globals: each request
 * posted to it is sent with at most `sockets` connections kept alive per protocol, and at most `maxBytes` of an answer
 * are kept (null text past them, the rest read and let go).
 */
function workerMain(load: (id: string) => unknown, sockets: number, maxBytes: number): void {
  type Req = { id: number; url: string; method: string; headers: Record<string, string>; body?: Uint8Array; timeoutMs: number };
  const { parentPort } = load('node:worker_threads') as typeof import('node:worker_threads');
  const http = load('node:http') as typeof import('node:http');
  const https = load('node:https') as typeof import('node:https');
  const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: sockets }), 'https:': new https.Agent({ keepAlive: true, maxSockets: sockets }) };
  parentPort!.on('message', (m: Req) => {
    let done = false;
    const reply = (r: object) => {
      if (done) return;
      done = true;
      parentPort!.postMessage({ id: m.id, ...r });
    };
    const fail = (err: { code?: unknown; name?: unknown; errors?: { code?: unknown }[]; cause?: { code?: unknown } }) => {
      const code = [err?.code, err?.errors?.[0]?.code, err?.cause?.code].find((c) => typeof c === 'string');
      reply({ failed: { code, name: typeof err?.name === 'string' ? err.name : undefined } });
    };
    const url = new URL(m.url);
    const send = url.protocol === 'https:' ? https.request : http.request;
    const agent = agents[url.protocol as 'http:'];
    const out = send(url, { method: m.method, headers: m.headers, agent, timeout: m.timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) over = true;
        else chunks.push(c);
      });
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        reply({ answer: { status: res.statusCode ?? 0, headers, text: over ? null : Buffer.concat(chunks).toString('utf8') } });
      });
      res.on('error', fail);
    });
    out.on('timeout', () => out.destroy(Object.assign(new Error('timed out'), { code: 'TimeoutError' })));
    out.on('error', fail);
    out.end(m.body === undefined ? undefined : Buffer.from(m.body));
  });
}

/**
 * Sends through one worker, started at the first request and stopped by close(). It keeps the process alive only while
 * requests are in flight. A worker that dies fails the requests it held, and the next request starts another.
 */
export function workerTransport(sockets: number, maxBytes: number): Transport {
  let worker: Worker | undefined;
  let next = 0;
  const pending = new Map<number, { resolve: (a: TargetAnswer) => void; reject: (e: Error) => void }>();
  const settle = (w: Worker) => {
    if (pending.size === 0) w.unref();
  };
  const failAll = (w: Worker, err: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const start = (): Worker => {
    // esbuild's name helper, which tsx may add inside a function, is not defined in the worker: a stand-in keeps it harmless.
    const source = `var __name = (f) => f;\n(${workerMain.toString()})(require, ${sockets}, ${maxBytes});`;
    // No flags of the parent's: its program is plain CommonJS whatever loader or input type the process was started with.
    const w = new Worker(source, { eval: true, execArgv: [] });
    w.on('message', (r: Reply) => {
      const p = pending.get(r.id);
      if (!p) return;
      pending.delete(r.id);
      if ('answer' in r) p.resolve(r.answer);
      else p.reject(Object.assign(new Error('shadow request failed'), { code: r.failed.code, name: r.failed.name ?? 'Error' }));
      settle(w);
    });
    w.on('error', (err) => failAll(w, err));
    w.on('exit', () => failAll(w, Object.assign(new Error('shadow worker stopped'), { code: 'worker_stopped' })));
    return w;
  };
  return {
    send: (req: Outgoing) =>
      new Promise<TargetAnswer>((resolve, reject) => {
        const id = next++;
        const w = (worker ??= start());
        pending.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, url: req.url.href, method: req.method, headers: req.headers, body: req.body, timeoutMs: req.timeoutMs });
      }),
    close: async () => {
      const w = worker;
      worker = undefined;
      if (w) await w.terminate();
    },
  };
}
