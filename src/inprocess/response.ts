// The Response of mock.fetch: a real Response (instanceof, status, headers, every body method) whose bytes are already in
// memory, so text(), json() and arrayBuffer() read them directly instead of through a web stream.
import type { Answer } from './transport.js';

/** Statuses whose Response must have a null body (Fetch standard). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function headersOf(res: Answer): Headers {
  const headers = new Headers();
  for (const k of Object.keys(res.headers)) {
    const v = res.headers[k];
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else headers.set(k, String(v));
  }
  return headers;
}

/**
 * Built by the Response constructor without a body; the payload is kept as a Buffer. Reading it as
 * text, JSON or bytes needs no stream; anything else (body, blob, formData, bytes, a clone after a
 * partial read) goes through a standard Response made from the same bytes on first use.
 */
// The DOM typings declare Response's members as properties, which a subclass may not redefine as accessors: the
// class extends the same constructor under a narrower type (at run time it is Response, and instanceof holds).
const StandardResponse = Response as unknown as new (body: null, init: ResponseInit) => { readonly status: number; readonly statusText: string };

/**
 * Response as it was when this module loaded. While node:http is intercepted, @mswjs/interceptors replaces the
 * global Headers, Request and Response with proxies that record raw header names (for IncomingMessage.rawHeaders):
 * each Response made through the proxy builds a second Headers. Ours need no record: the transport's names are
 * already lowercase, which is what the interceptor falls back to (headers.entries()).
 */
const NativeResponse: typeof Response = Response;

/** A standard Response over the injected answer, for callers that will read it as a stream anyway (the interceptors). */
export function standardResponse(res: Answer, method: string): Response {
  const empty = NULL_BODY.has(res.statusCode) || method === 'HEAD';
  // Header pairs, not a Headers object: the Response constructor copies its init's headers anyway.
  const headers: [string, string][] = [];
  for (const k of Object.keys(res.headers)) {
    const v = res.headers[k];
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) headers.push([k, x]);
    else headers.push([k, String(v)]);
  }
  return new NativeResponse(empty ? null : res.rawPayload, { status: res.statusCode, statusText: res.statusMessage, headers });
}

export class InProcessResponse extends StandardResponse {
  #payload: Buffer | null;
  #headers: Headers | undefined;
  #source: Answer;
  #url: string;
  #used = false;
  #inner: Response | undefined;

  constructor(res: Answer, method: string, url: string) {
    super(null, { status: res.statusCode, statusText: res.statusMessage });
    this.#source = res;
    this.#payload = NULL_BODY.has(res.statusCode) || method === 'HEAD' ? null : res.rawPayload;
    this.#url = url;
  }

  get url(): string {
    return this.#url;
  }

  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#source));
  }

  /** The standard Response over the same bytes, for the readers that need a stream. */
  #standard(): Response {
    this.#inner ??= new Response(this.#used ? null : this.#payload, { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#inner;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#payload === null ? null : (this.#standard().body as ReadableStream<Uint8Array> | null);
  }

  get bodyUsed(): boolean {
    return this.#inner ? this.#inner.bodyUsed : this.#used;
  }

  #take(): Buffer {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#payload ?? Buffer.alloc(0);
  }

  async text(): Promise<string> {
    if (this.#inner) return this.#inner.text();
    return this.#take().toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#inner) return this.#inner.arrayBuffer();
    const b = this.#take();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  blob(): Promise<Blob> {
    return this.#standard().blob();
  }

  formData(): Promise<FormData> {
    return this.#standard().formData();
  }

  clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    if (this.#inner) return this.#inner.clone();
    return new InProcessResponse(this.#source, this.#payload === null ? 'HEAD' : 'GET', this.#url) as unknown as Response;
  }
}
