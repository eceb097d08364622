// For the fast path suites: a listener on a port (plain, or as the CLI's server, one writeHead per answer), one request
// with exact headers answered with its raw headers (Date dropped), a count of the Koa contexts a mock makes, and a
// listener that reads the Authorization header through a hook (to act at a given read, as a request is being answered).
import { createServer, request, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockApp } from '../../src/app.js';
import { OwnedResponse } from '../../src/fast-path-sent.js';

export interface Raw {
  status: number;
  /** The raw header list as it came (names as sent), without Date. */
  headers: string[];
  body: string;
}

export function listen(listener: RequestListener, owned = false): Promise<Server> {
  const server = owned ? createServer({ ServerResponse: OwnedResponse }, listener) : createServer(listener);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Closes each server (and its idle connections). */
export function closeAll(servers: Server[]): void {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
}

/** One request to `server`; `headers` as a flat list of names and values is sent as it is (a name may come twice). */
export function send(server: Server, path: string, headers: Record<string, string> | string[] = {}, method = 'GET'): Promise<Raw> {
  const { port } = server.address() as AddressInfo;
  const all = Array.isArray(headers) ? headers : { Host: 'localhost', ...headers };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: all }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const raw = res.rawHeaders.filter((_, i, list) => list[i - (i % 2)].toLowerCase() !== 'date');
        resolve({ status: res.statusCode ?? 0, headers: raw, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Counts the Koa contexts `mock` makes from now on: the whole chain makes one per request, the fast path none. */
export function countContexts(mock: MockApp): () => number {
  let made = 0;
  const create = mock.app.createContext.bind(mock.app);
  mock.app.createContext = ((req, res) => (made++, create(req, res))) as typeof mock.app.createContext;
  return () => made;
}

/** The newest entry of `journal` as JSON, without what differs by nature between two requests (its id, its duration). */
export function newestEntry(journal: MockApp['control']['journal']): unknown {
  const r = journal.records().at(-1)!;
  // Every field but the id and the duration (an entry reads most of its fields from what it shares with others).
  const e = {
    atMs: r.atMs,
    method: r.method,
    path: r.path,
    querystring: r.querystring,
    status: r.status,
    operation: r.operation,
    requestHeaders: r.requestHeaders,
    requestBody: r.requestBody,
    responseHeaders: r.responseHeaders,
    responseBody: r.responseBody,
    fault: r.fault,
    drift: r.drift,
    client: r.client,
    simulated: r.simulated,
    size: r.size,
  };
  return JSON.parse(JSON.stringify(e));
}

/**
 * `listener` with each request's Authorization read through `read`: called with the read's number (1: the client
 * observer's at arrival, 2: authentication's, in both paths) and the response; it answers the header's value.
 */
export function readingAuthorization(listener: RequestListener, read: (n: number, res: ServerResponse, req: IncomingMessage) => string): RequestListener {
  return (req, res) => {
    let n = 0;
    Object.defineProperty(req.headers, 'authorization', { enumerable: true, configurable: true, get: () => read(++n, res, req) });
    listener(req, res);
  };
}
