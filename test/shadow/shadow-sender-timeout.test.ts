// The shadow sender's time and failure rules: a request starts on a later turn of the event loop, a target silent past timeoutMs is unreachable for it, and last_error is a code string.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShadowSender, type ShadowJob } from '../../src/shadow/sender.js';
import type { ShadowSettings } from '../../src/shadow/options.js';
import { senderSettings } from '../helpers/shadow.js';

type Fetch = NonNullable<ShadowSettings['fetch']>;

const settings = (fetch: Fetch, over: Partial<ShadowSettings> = {}): ShadowSettings => senderSettings({ timeoutMs: 30, retryMs: 60_000, fetch, ...over });

/** A job that records its outcome: 'answered <status>' or 'unreachable'. */
const job = (outcomes: string[]): ShadowJob => ({
  method: 'GET',
  target: '/api/v3/x',
  headers: {},
  answered: (a) => outcomes.push(`answered ${a.status}`),
  unreachable: () => outcomes.push('unreachable'),
});

/** Sends one job through a fresh sender on `fetch`, and answers its outcome and the target's state afterwards. */
async function one(fetch: Fetch, over: Partial<ShadowSettings> = {}) {
  const lines: string[] = [];
  const sender = new ShadowSender(settings(fetch, over), (l) => lines.push(l), 'http://target.test/');
  const outcomes: string[] = [];
  assert.is(sender.admit(), null);
  sender.submit(job(outcomes));
  await sender.settled();
  return { outcomes, view: sender.health.view(), lines };
}

test('a submitted request is not sent inside the caller: it starts on a later turn of the event loop', async () => {
  let calls = 0;
  const sender = new ShadowSender(
    settings(async () => {
      calls++;
      return new Response('{}', { status: 200 });
    }),
    () => {},
    'http://target.test/',
  );
  const outcomes: string[] = [];
  sender.submit(job(outcomes));
  sender.submit(job(outcomes));
  assert.is(calls, 0, 'sent inside submit');
  assert.is(sender.pending, 2);
  await sender.settled();
  assert.is(calls, 2);
  assert.equal(outcomes, ['answered 200', 'answered 200']);
});

test('a target that has not answered within timeoutMs is unreachable for that request; last_error is TimeoutError', async () => {
  // Answers only when aborted: the sender's own timeout (30 ms here; retryMs is a minute) ends the wait.
  const silent: Fetch = (_input, init) =>
    new Promise((_resolve, reject) => {
      const signal = init.signal!;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  const { outcomes, view, lines } = await one(silent);
  assert.equal(outcomes, ['unreachable']);
  assert.equal(view, { state: 'down', since: new Date(0).toISOString(), last_error: 'TimeoutError', notices: 1 });
  assert.equal(lines, [
    'shadow: target http://target.test/ is unreachable (TimeoutError); requests are not compared until it answers (notices at most once a minute)',
  ]);
});

test('last_error names the failure by its code, else by its kind, never by a message', async () => {
  const failing =
    (err: unknown): Fetch =>
    () =>
      Promise.reject(err);
  const cases: [unknown, string][] = [
    [new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }) }), 'ECONNREFUSED'],
    [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'ECONNRESET'],
    [new TypeError('fetch failed', { cause: new AggregateError([Object.assign(new Error('x'), { code: 'EHOSTUNREACH' })]) }), 'EHOSTUNREACH'],
    [new TypeError('fetch failed'), 'fetch failed'],
    [new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { name: 'SocketError' }) }), 'SocketError'],
    [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 'TimeoutError'],
    [new RangeError('https://user:pw@target.test/ bad'), 'RangeError'],
  ];
  for (const [err, expected] of cases) {
    const { outcomes, view } = await one(failing(err));
    assert.equal(outcomes, ['unreachable']);
    assert.is(view.last_error, expected, String(err));
  }
});

test.run();
