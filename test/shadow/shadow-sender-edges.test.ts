// The shadow sender and the target's health at their edges: the rate's bucket holds one second of tokens, the cap on requests in flight, an outage's figures counted from its own start, and `since` kept while the target stays up.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShadowSender, type ShadowJob } from '../../src/shadow/sender.js';
import { TargetHealth } from '../../src/shadow/target-health.js';
import { senderSettings } from '../helpers/shadow.js';

const job = (done: (ok: boolean) => void): ShadowJob => ({
  method: 'GET',
  target: '/api/v3/x',
  headers: {},
  answered: () => done(true),
  unreachable: () => done(false),
});

test('rate: a sender idle for 10 s admits a burst of one second of tokens, not ten', () => {
  let now = 0;
  const sender = new ShadowSender(senderSettings({ ratePerSecond: 2, now: () => now }), () => {}, 'http://target.test');
  assert.equal([sender.admit(), sender.admit(), sender.admit()], [null, null, 'rate_limited']);
  now = 10_000;
  assert.equal([sender.admit(), sender.admit(), sender.admit()], [null, null, 'rate_limited']);
  // Half a second later: one token again (2 a second), and no more.
  now = 10_500;
  assert.equal([sender.admit(), sender.admit()], [null, 'rate_limited']);
});

test('concurrency: with a cap of 2, a third queued request waits until one of the two is answered', async () => {
  const held: (() => void)[] = [];
  let most = 0;
  let open = 0;
  const fetch = () =>
    new Promise<Response>((resolve) => {
      open++;
      most = Math.max(most, open);
      held.push(() => {
        open--;
        resolve(new Response('{}', { status: 200 }));
      });
    });
  const sender = new ShadowSender(senderSettings({ concurrency: 2, fetch }), () => {}, 'http://target.test');
  const outcomes: boolean[] = [];
  for (let i = 0; i < 3; i++) sender.submit(job((ok) => outcomes.push(ok)));
  await new Promise((r) => setImmediate(r));
  assert.is(held.length, 2, 'two sent at once');
  assert.is(sender.pending, 3);
  held.shift()!();
  await new Promise((r) => setTimeout(r, 10));
  assert.is(held.length, 2, 'the third sent once the first was answered');
  for (const release of held.splice(0)) release();
  await sender.settled();
  assert.is(most, 2);
  assert.equal(outcomes, [true, true, true]);
});

test('health: an outage counts the requests missed in it alone, and reports whole seconds rounded', () => {
  let now = 0;
  const lines: string[] = [];
  const health = new TargetHealth(
    'http://target.test',
    (l) => lines.push(l),
    () => now,
    1000,
  );
  health.answered();
  // First outage: down, then two requests not tried, back up 1.4 s after it began.
  health.missed('ECONNREFUSED');
  health.missed();
  health.missed();
  now = 1400;
  health.answered();
  assert.is(lines[1], 'shadow: target http://target.test answers again after 1 s down (3 requests were not compared)');
  // Second outage: one failed request, back up 1.5 s later: its own count (1), and 1.5 s shown as 2.
  health.missed('ECONNRESET');
  now = 2900;
  health.answered();
  assert.is(lines[3], 'shadow: target http://target.test answers again after 2 s down (1 requests were not compared)');
  assert.is(lines.length, 4);
});

test('health: `since` is when the target came up, kept while it keeps answering', () => {
  let now = 5000;
  const health = new TargetHealth(
    'http://target.test',
    () => {},
    () => now,
    1000,
  );
  assert.equal(health.view(), { state: 'unknown', since: null, last_error: null, notices: 0 });
  health.answered();
  now = 9000;
  health.answered();
  assert.equal(health.view(), { state: 'up', since: new Date(5000).toISOString(), last_error: null, notices: 0 });
});

test.run();
