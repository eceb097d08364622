// Reading a request body to its bytes: the byte limit at its boundary (declared or counted), a length that does not
// match Content-Length, streams that fail, abort or close early, and what is left of the stream after a refusal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough, Readable } from 'node:stream';
import { BodyReadError, readBody } from '../../src/body/read.js';

/** A stream that gives these chunks, then ends. */
const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, BodyReadError);
    return (err as BodyReadError).reason;
  }
  assert.unreachable('expected the read to fail');
  return '';
}

test('read: every chunk, in order, as one Buffer; no body is an empty Buffer', async () => {
  const bytes = await readBody(chunks('{"a"', ': 1', '}'), 100);
  assert.ok(Buffer.isBuffer(bytes));
  assert.is(bytes.toString('utf8'), '{"a": 1}');
  assert.is((await readBody(chunks(), 100)).length, 0);
  // Multi-byte characters split across chunks are kept as bytes, not decoded per chunk.
  const euro = Buffer.from('€');
  const split = Readable.from([euro.subarray(0, 1), euro.subarray(1)]);
  assert.equal([...(await readBody(split, 100))], [...euro]);
});

test('limit: exactly the limit is read; one byte more is too_large, counted as the bytes come', async () => {
  assert.is((await readBody(chunks('12345', '67890'), 10)).toString(), '1234567890');
  assert.is(await refusal(readBody(chunks('12345', '678901'), 10)), 'too_large');
  assert.is(await refusal(readBody(chunks('12345678901'), 10)), 'too_large');
});

test('limit: a declared Content-Length over the limit is refused before any byte is read; the stream stays paused and unread', async () => {
  const stream = new PassThrough();
  stream.end(Buffer.from('x'.repeat(11)));
  assert.is(await refusal(readBody(stream, 10, '11')), 'too_large');
  assert.is(stream.listenerCount('data'), 0);
  assert.is(stream.read()?.toString(), 'x'.repeat(11), 'nothing was consumed');
  // At the limit, a declared length is read as usual.
  assert.is((await readBody(chunks('x'.repeat(10)), 10, '10')).length, 10);
});

test('Content-Length: fewer or more bytes than declared are unreadable; a length that is not a number is ignored', async () => {
  assert.is(await refusal(readBody(chunks('12345'), 100, '6')), 'unreadable');
  assert.is(await refusal(readBody(chunks('12345'), 100, '4')), 'unreadable');
  assert.is((await readBody(chunks('12345'), 100, '5')).toString(), '12345');
  assert.is((await readBody(chunks('12345'), 100, 'abc')).toString(), '12345');
  // parseInt reads the leading digits of a numeric string, as raw-body did: " 5" is 5.
  assert.is((await readBody(chunks('12345'), 100, ' 5')).toString(), '12345');
  assert.is(await refusal(readBody(chunks('12345'), 100, ' 6')), 'unreadable');
});

test('a stream that fails, is aborted or closes before its end is unreadable; the listeners are gone and it is paused', async () => {
  for (const [what, stop] of [
    ['error', (s: PassThrough) => s.destroy(new Error('socket hang up'))],
    ['aborted', (s: PassThrough) => s.emit('aborted')],
    ['close', (s: PassThrough) => s.emit('close')],
  ] as const) {
    const stream = new PassThrough();
    const read = readBody(stream, 100);
    stream.write('half of it');
    await new Promise((r) => setImmediate(r));
    stop(stream);
    assert.is(await refusal(read), 'unreadable', what);
    for (const event of ['data', 'end', 'aborted', 'close']) assert.is(stream.listenerCount(event), 0, `${what}: ${event} listener left`);
    if (what !== 'error') assert.ok(stream.isPaused(), `${what}: paused`);
  }
});

test('a stream already decoding to text, or already read to its end, is unreadable', async () => {
  const text = new PassThrough();
  text.setEncoding('utf8');
  text.end('{}');
  assert.is(await refusal(readBody(text, 100)), 'unreadable');
  const spent = chunks('{}');
  spent.resume();
  await new Promise((r) => spent.on('end', r));
  assert.is(await refusal(readBody(spent, 100)), 'unreadable');
});

test('a refusal is an Error whose message says why', async () => {
  assert.is(new BodyReadError('too_large').message, 'request entity too large');
  assert.is(new BodyReadError('unreadable').message, 'request body unreadable');
});

test.run();
