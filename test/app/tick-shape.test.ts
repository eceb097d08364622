// A mock holds one of Node's tick objects, so three full collections in an idle spell leave ticks their hidden class.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { heldTick } from '../../src/tick-shape.js';
import { freshMock } from '../helpers/app.js';

test('tick shape: a mock holds a tick object from its first turn on, and the same one afterwards', async () => {
  const { mock } = await freshMock();
  await new Promise((resolve) => setImmediate(resolve));
  const held = heldTick();
  assert.ok(held !== null, 'no tick held after a mock was made and a turn ran');
  assert.ok('callback' in held && 'args' in held, `held: ${Object.keys(held)}`);
  assert.ok(Object.getOwnPropertySymbols(held).length >= 2, 'the held object has no async id symbols');
  await freshMock();
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(heldTick(), held, 'a second mock replaced the held tick');
  await mock.close();
});

test('tick shape: after three full collections with no tick alive, a new tick has the held tick hidden class', () => {
  const out = spawnSync(
    process.execPath,
    ['--expose-gc', '--allow-natives-syntax', '--import', 'tsx', fileURLToPath(new URL('../helpers/tick-shape-child.ts', import.meta.url))],
    { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) },
  );
  assert.is(out.status, 0, out.stderr.slice(-2000));
  assert.equal(JSON.parse(out.stdout), { held: true, heldIsTick: true, afterIsTick: true, sameMap: true });
});

test.run();
