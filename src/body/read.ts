// Reads a request stream to one Buffer with a byte limit: a declared or counted length over the limit is 413, a stream
// that ends short of its Content-Length, is aborted or fails is unreadable. No charset decoding happens here.

/** Why a read failed: `too_large` (413 payload_too_large) or `unreadable` (400 body_unreadable). */
export class BodyReadError extends Error {
  constructor(readonly reason: 'too_large' | 'unreadable') {
    super(reason === 'too_large' ? 'request entity too large' : 'request body unreadable');
  }
}

/** The declared length as raw-body read it (`isNaN` then `parseInt`), or null when there is none or it is not a number. */
function declaredLength(contentLength: string | undefined): number | null {
  return contentLength != null && !isNaN(contentLength as unknown as number) ? parseInt(contentLength, 10) : null;
}

/**
 * All bytes of `stream`. A Content-Length over `limit` is refused before any byte is read (the stream is left
 * paused); otherwise bytes are counted as they come and the read stops at the first byte past `limit`. On any
 * failure the stream is unpiped and paused, as raw-body did.
 */
export function readBody(stream: NodeJS.ReadableStream & { readable?: boolean }, limit: number, contentLength?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const length = declaredLength(contentLength);
    if (length !== null && length > limit) return reject(new BodyReadError('too_large'));
    const state = (stream as { _readableState?: { encoding?: unknown; decoder?: unknown } })._readableState;
    // A stream already decoding to text, or already read to its end, cannot give the bytes.
    if (state?.encoding || state?.decoder || stream.readable === false) return reject(new BodyReadError('unreadable'));
    const chunks: Buffer[] = [];
    let received = 0;
    let complete = false;
    const cleanup = () => {
      stream.removeListener('aborted', onAborted);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('close', onClose);
    };
    const fail = (reason: BodyReadError['reason']) => {
      complete = true;
      cleanup();
      stream.unpipe?.();
      stream.pause?.();
      reject(new BodyReadError(reason));
    };
    function onAborted() {
      if (!complete) fail('unreadable');
    }
    function onError() {
      if (!complete) fail('unreadable');
    }
    // Closed without an end (the peer went away): nothing more will come.
    function onClose() {
      if (!complete) fail('unreadable');
    }
    function onData(chunk: Buffer | string) {
      if (complete) return;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limit) fail('too_large');
      else chunks.push(bytes);
    }
    function onEnd() {
      if (complete) return;
      if (length !== null && received !== length) return fail('unreadable');
      complete = true;
      cleanup();
      resolve(Buffer.concat(chunks, received));
    }
    stream.on('aborted', onAborted);
    stream.on('close', onClose);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
