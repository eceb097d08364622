// A request's wait lets go of its sandbox's end once it is over (a value, a failure, a sleep that ran out), so an ended wait holds no listener.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Context } from 'koa';
import { SandboxLife } from '../../src/sandboxes/life.js';
import { SandboxEnded, endOf, endsWith, sleep, until, type Ending } from '../../src/request-waits.js';

/** An end that counts the listeners it holds, and can come. */
function countedEnd() {
  const held = new Set<() => void>();
  const end = {
    ended: false,
    onEnd(listener: () => void) {
      const entry = () => listener();
      held.add(entry);
      return () => void held.delete(entry);
    },
    come() {
      end.ended = true;
      for (const listener of [...held]) listener();
    },
  };
  return { end: end as Ending & { come(): void }, held };
}

test('until: a wait that got its value lets go of the end', async () => {
  const { end, held } = countedEnd();
  let resolve!: (v: number) => void;
  const waiting = until(new Promise<number>((r) => (resolve = r)), end);
  assert.is(held.size, 1, 'the wait listens while it waits');
  resolve(7);
  assert.is(await waiting, 7);
  assert.is(held.size, 0, 'over: nothing held');
});

test('until: a wait whose promise failed lets go of the end and fails with that error', async () => {
  const { end, held } = countedEnd();
  let reject!: (e: Error) => void;
  const waiting = until(new Promise<number>((_, r) => (reject = r)), end);
  assert.is(held.size, 1);
  reject(new Error('own'));
  const err = await waiting.then(
    () => assert.unreachable('the promise failed'),
    (e: Error) => e,
  );
  assert.is((err as Error).message, 'own');
  assert.is(held.size, 0, 'failed: nothing held');
});

test('sleep: many waits that ran out hold nothing, and the end that comes after calls none', async () => {
  const { end, held } = countedEnd();
  await Promise.all(Array.from({ length: 20 }, () => sleep(1, end)));
  assert.is(held.size, 0);
  end.come();
  // A wait after the end is refused at once.
  const late = await sleep(1, end).then(
    () => 'slept',
    (e: unknown) => e,
  );
  assert.instance(late, SandboxEnded);
  assert.is(held.size, 0);
});

test('endsWith and endOf: a request marked with an end answers that end; one not marked, none', () => {
  const life = new SandboxLife();
  const marked = { state: {} } as unknown as Context;
  const plain = { state: {} } as unknown as Context;
  endsWith(marked, life);
  assert.is(endOf(marked), life);
  assert.is(endOf(plain), undefined);
  assert.equal(Object.keys(marked.state), [], 'the mark is not a key a handler sees');
});

test.run();
