// A sandbox's life as its requests' waits see it: each wait hears the end once, a wait that is over no longer does,
// and waits that come after the end are refused at once (the end is one instant, whatever waits on it).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SandboxLife } from '../../src/sandboxes/life.js';
import { SandboxEnded, sleep, until } from '../../src/request-waits.js';

test('every wait still waiting hears the end once; one that is over does not', async () => {
  const life = new SandboxLife();
  const heard: string[] = [];
  const a = life.onEnd(() => heard.push('a'));
  const over = life.onEnd(() => heard.push('over'));
  const shared = () => heard.push('shared');
  life.onEnd(shared);
  life.onEnd(shared); // the same function for two waits: two listeners
  over();
  over(); // letting go twice changes nothing
  assert.equal(heard, []);
  await life.end();
  assert.equal(heard, ['a', 'shared', 'shared']);
  a(); // after the end: nothing left to let go of
  await life.end();
  assert.equal(heard, ['a', 'shared', 'shared'], 'the end comes once');
  assert.is(life.ended, true);
});

test('a wait given up before the end is not called at the end, and new waits after it still are', async () => {
  const life = new SandboxLife();
  let first = 0;
  let second = 0;
  life.onEnd(() => first++)();
  const off = life.onEnd(() => second++);
  await life.end();
  assert.is(first, 0);
  assert.is(second, 1);
  off();
});

test('until: the value when it comes first, SandboxEnded when the end comes first or has already come', async () => {
  const life = new SandboxLife();
  assert.is(await until(Promise.resolve(7), life), 7);
  try {
    await until(Promise.reject(new Error('own')), life);
    assert.unreachable('the promise failed');
  } catch (err) {
    assert.is((err as Error).message, 'own');
  }
  const waiting = until(new Promise(() => {}), life);
  const slept = sleep(1000, life);
  void life.end();
  for (const p of [waiting, slept]) {
    try {
      await p;
      assert.unreachable('should have been cut short');
    } catch (err) {
      assert.instance(err, SandboxEnded);
    }
  }
  try {
    await until(Promise.resolve(1), life);
    assert.unreachable('an ended sandbox refuses new waits');
  } catch (err) {
    assert.instance(err, SandboxEnded);
  }
  assert.is(await until(Promise.resolve('root'), undefined), 'root', 'no end: the promise itself');
});

test.run();
