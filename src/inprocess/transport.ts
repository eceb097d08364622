// The in-process transport of mock.fetch and interception: a request stream and a ServerResponse on a socket that keeps
// nothing, served by the app's listener, with no accessor defined per object (see exchange below for why).
import { EventEmitter } from 'node:events';
import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import { Readable, Writable } from 'node:stream';

/** A request as fetch would send it: method, absolute URL, lowercase header names, the body. */
export interface Outgoing {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload: Buffer | string | undefined;
}

/** The answer: status, headers as Node's getHeaders() gives them (values as text), the body's bytes. */
export interface Answer {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly headers: Record<string, string | string[]>;
  readonly rawPayload: Buffer;
}

/** The error a response destroyed before it finished is reported with (what a socket closed mid-answer is). */
export const RESET = 'LIGHT_ECONNRESET';

const resetError = (): Error => Object.assign(new Error('response destroyed before completion'), { code: RESET });

/** The request's socket: only its address is read (Koa's ctx.ip); an emitter, so listeners may be added to it. */
function requestSocket(): EventEmitter {
  return Object.assign(new EventEmitter(), { remoteAddress: '127.0.0.1' });
}

/**
 * The request: headers as a server gets them (a user agent and a Host when fetch's had none, the body's length), and a
 * body pushed whole on the first read, then its end. A destroy before the body was read closes the exchange.
 */
class ServedRequest extends Readable {
  url: string;
  aborted = false;
  httpVersionMajor = 1;
  httpVersionMinor = 1;
  httpVersion = '1.1';
  method: string;
  headers: Record<string, string> = {};
  rawHeaders: string[] = [];
  socket = requestSocket();
  #payload: Buffer | string | null;
  #isDone = false;
  #failed = false;

  constructor(out: Outgoing) {
    super({ autoDestroy: false });
    const parsed = new URL(out.url);
    this.url = parsed.pathname + parsed.search;
    this.method = out.method.toUpperCase();
    for (const name of Object.keys(out.headers)) this.headers[name.toLowerCase()] = '' + out.headers[name];
    if (!('user-agent' in this.headers)) this.headers['user-agent'] = 'lightMyRequest';
    this.headers.host ||= parsed.port ? parsed.host : parsed.hostname + (parsed.protocol === 'https:' ? ':443' : ':80');
    // An empty text body sends no length; an empty Buffer sends 0 (as light-my-request did).
    this.#payload = out.payload || null;
    if (this.#payload && !Object.hasOwn(this.headers, 'content-length')) this.headers['content-length'] = String(Buffer.byteLength(this.#payload));
    for (const name of Object.keys(this.headers)) this.rawHeaders.push(name, this.headers[name]!);
  }

  override _read(): void {
    setImmediate(() => {
      if (!this.#isDone) {
        this.#isDone = true;
        if (this.#payload) this.push(this.#payload);
      }
      this.push(null);
    });
  }

  override destroy(error?: Error): this {
    if (this.destroyed || this.#isDone) return this;
    this.destroyed = true;
    if (error) {
      this.#failed = true;
      process.nextTick(() => this.emit('error', error));
    }
    process.nextTick(() => this.emit('close'));
    return this;
  }

  /** Destroyed with an error (the response is then destroyed by that error, not closed). */
  get failed(): boolean {
    return this.#failed;
  }
}

/** Takes every write at once and keeps nothing: the head and body bytes are read from the response itself. */
const discard = (_chunk: unknown, _encoding: unknown, done: () => void) => done();

/** The raw header lines Node writes itself, copied from the head it built (getHeaders() does not hold them). */
const RAW_LINES = ['Date', 'Connection', 'Transfer-Encoding'].map((name) => ({ key: name.toLowerCase(), line: new RegExp(`\\r\\n${name}: ([^\\r]*)\\r\\n`) }));

type Settle = (err: Error | null, answer?: Answer) => void;

/**
 * The response: Node's ServerResponse (the head, chunked framing, HEAD and empty statuses as on a socket) on a socket
 * that discards, keeping the body's chunks and the headers at the head's time; settles once, at its end or on close.
 */
class ServedResponse extends ServerResponse {
  #chunks: Buffer[] = [];
  #head: Record<string, string | number | string[]> | null = null;
  #settle: Settle | null;

  constructor(req: ServedRequest, settle: Settle) {
    super(req as unknown as IncomingMessage);
    this.#settle = settle;
    // A header set and removed makes Node build the head from its own table, as for any response that set one.
    this.setHeader('foo', 'bar');
    this.removeHeader('foo');
    this.assignSocket(new Writable({ write: discard }) as never);
    this.once('error', (err: Error) => this.#done(err));
    this.once('close', () => this.#done(resetError()));
  }

  #done(err: Error | null): void {
    const settle = this.#settle;
    if (settle === null) return;
    this.#settle = null;
    if (err) {
      process.nextTick(settle, err);
      return;
    }
    this.#head ??= copyHead(this);
    const headers: Record<string, string | string[]> = {};
    for (const name of Object.keys(this.#head)) {
      const v = this.#head[name];
      headers[name] = Array.isArray(v) ? v.map((x) => '' + x) : '' + v;
    }
    const answer: Answer = { statusCode: this.statusCode, statusMessage: this.statusMessage, headers, rawPayload: this.written() };
    process.nextTick(settle, null, answer);
  }

  override writeHead(...args: unknown[]): this {
    (super.writeHead as (...a: unknown[]) => unknown)(...args);
    this.#head = copyHead(this);
    return this;
  }

  override write(data: unknown, encoding?: unknown, callback?: unknown): boolean {
    (super.write as (...a: unknown[]) => boolean)(data, encoding, callback);
    this.#chunks.push(Buffer.from(data as string, encoding as BufferEncoding));
    return true;
  }

  override end(data?: unknown, encoding?: unknown, callback?: unknown): this {
    if (data) this.write(data, encoding);
    (super.end as (cb?: unknown) => void)(callback);
    // Settled here; Node emits the response's one 'finish' itself (its discarding socket calls back every write).
    this.#done(null);
    this.destroy();
    return this;
  }

  /** The body's bytes written so far. */
  written(): Buffer {
    return Buffer.concat(this.#chunks);
  }

  override destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (error) process.nextTick(() => this.emit('error', error));
    process.nextTick(() => this.emit('close'));
    return this;
  }
}

function copyHead(res: ServerResponse): Record<string, string | number | string[]> {
  const head: Record<string, string | number | string[]> = Object.assign({}, res.getHeaders()) as Record<string, string | number | string[]>;
  const raw = (res as unknown as { _header?: string | null })._header;
  for (const { key, line } of RAW_LINES) {
    const found = raw?.match(line);
    if (found) head[key] = found[1]!;
  }
  return head;
}

/**
 * Serves one request through `dispatch`: resolves with the answer once the response finished, rejects with a RESET error
 * when it closed first. `onResponse` gets the response before the listener runs (an abort destroys it).
 *
 * Why not light-my-request: it gives each request its own `connection` getter (Object.defineProperty with a fresh
 * closure over the request) and each answer its own `cookies` getter; objects so made were kept past the young
 * generation with all they reach (about 8.5 KB a request), which grew V8's young generation under load. These objects
 * get their fields in one order and their methods from the prototype.
 */
export function exchange(dispatch: RequestListener, out: Outgoing, onResponse?: (res: ServerResponse) => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = new ServedRequest(out);
    const res = new ServedResponse(req, (err, answer) => (err ? reject(err) : resolve(answer!)));
    req.once('error', (err: Error) => {
      if (req.destroyed) res.destroy(err);
    });
    req.once('close', () => {
      if (req.destroyed && !req.failed) res.destroy();
    });
    onResponse?.(res);
    dispatch(req as unknown as IncomingMessage, res);
  });
}

/** The bytes a response wrote before it was destroyed (for the body a broken answer shows). */
export const writtenOf = (res: ServerResponse | undefined): Buffer => (res instanceof ServedResponse ? res.written() : Buffer.alloc(0));
