// A sandbox's end at the instant it comes: every wait hears it inside end() itself, a wait let go of twice never drops another's, the last answer lets the end go a turn later (what this turn decided comes first), and from the end on its storage refuses every write, also one from a request still in flight, while a live one passes each write through whole.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LiveAdapter, SandboxLife } from '../../src/sandboxes/life.js';
import { SandboxGone, type ChangeSetAdapter } from '../../src/storage/index.js';

test('the waits hear the end inside end() itself, before it returns', () => {
  const life = new SandboxLife();
  const heard: string[] = [];
  life.onEnd(() => heard.push('a'));
  life.onEnd(() => heard.push('b'));
  void life.end();
  heard.push('returned');
  assert.equal(heard, ['a', 'b', 'returned']);
  assert.is(life.ended, true);
});

test('a wait let go of again, after every wait was over, does not drop a wait that came since', async () => {
  const life = new SandboxLife();
  const heard: string[] = [];
  const first = life.onEnd(() => heard.push('first'));
  first(); // the last wait is over
  const second = life.onEnd(() => heard.push('second'));
  first(); // letting go of the first again
  const third = life.onEnd(() => heard.push('third'));
  third();
  await life.end();
  assert.equal(heard, ['second']);
  second();
});

test('the last answer lets the end go a turn later: what the same turn decided comes before it', async () => {
  const life = new SandboxLife();
  life.enter();
  const order: string[] = [];
  const end = life.end().then(() => order.push('end'));
  life.leave();
  // An answer decided in the same turn as the last leave (its promise chain settles before the next turn).
  void Promise.resolve()
    .then(() => undefined)
    .then(() => order.push('answer'));
  await end;
  assert.equal(order, ['answer', 'end']);
});

test('the end with one request in flight: not over until that one is answered', async () => {
  const life = new SandboxLife();
  life.enter();
  let over = false;
  const end = life.end().then(() => (over = true));
  await new Promise<void>((r) => setImmediate(r));
  await new Promise<void>((r) => setImmediate(r));
  assert.is(over, false);
  assert.is(life.inFlight, 1);
  life.leave();
  await end;
  assert.is(over, true);
  assert.is(life.inFlight, 0);
});

/** An inner adapter that records what reached it, with its arguments. */
function recording() {
  const reached: unknown[][] = [];
  const inner = {
    read: async () => ({ read: true }),
    write: async (data: unknown) => void reached.push(['write', data]),
    appendChangeSets: (group: unknown, committed: unknown, rebase?: unknown) => void reached.push(['append', group, committed, rebase]),
  } as unknown as ChangeSetAdapter;
  return { inner, reached };
}

test('a live sandbox passes each write to its storage whole: the data, the group, the committed state and the rebase', async () => {
  const { inner, reached } = recording();
  const adapter = new LiveAdapter(inner, new SandboxLife(), 'sb_live');
  const data = { file: 1 } as never;
  const group = [{ seq: 1 }] as never;
  const committed = { seq: 1 } as never;
  const rebase = { from: 0 } as never;
  await adapter.write(data);
  await adapter.appendChangeSets(group, committed, rebase);
  await adapter.appendChangeSets(group, committed);
  assert.equal(reached, [
    ['write', data],
    ['append', group, committed, rebase],
    ['append', group, committed, undefined],
  ]);
  assert.equal(await adapter.read(), { read: true });
});

test('from the end on a write from a request still in flight is refused too (SandboxGone naming the sandbox), and reads still work', async () => {
  const { inner, reached } = recording();
  const life = new SandboxLife();
  const adapter = new LiveAdapter(inner, life, 'sb_flight');
  life.enter(); // a request in flight when the end comes
  const end = life.end();
  let thrown: unknown;
  await adapter.write({} as never).catch((err: unknown) => (thrown = err));
  assert.instance(thrown, SandboxGone);
  assert.is((thrown as SandboxGone).id, 'sb_flight');
  assert.throws(
    () => adapter.appendChangeSets([], {} as never),
    (err: unknown) => err instanceof SandboxGone && err.id === 'sb_flight',
  );
  assert.equal(reached, [], 'nothing reached the storage');
  assert.equal(await adapter.read(), { read: true });
  life.leave();
  await end;
});

test.run();
