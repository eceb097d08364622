// Child of tick-shape.test.ts (--expose-gc --allow-natives-syntax): a mock answers, goes idle through three full
// collections, and a tick made afterwards is compared with the tick the mock holds: same hidden class or not.
import { executionAsyncResource } from 'node:async_hooks';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { heldTick } from '../../src/tick-shape.js';

const gc = (globalThis as { gc?: () => void }).gc!;
// V8's own test of two objects' hidden classes, parsed by V8 itself (natives syntax is not TypeScript).
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const turn = () => new Promise((resolve) => setImmediate(resolve));
const tick = () => new Promise<object>((resolve) => process.nextTick(() => resolve(executionAsyncResource())));

const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
const headers = { authorization: 'Bearer demo-owner-token' };
for (let i = 0; i < 200; i++) await (await mock.fetch('/api/v3/projects', { headers })).text();
await turn();
for (let i = 0; i < 3; i++) gc();
const after = await tick();
const held = heldTick();
process.stdout.write(
  JSON.stringify({
    held: held !== null,
    heldIsTick: held !== null && 'callback' in held && Object.getOwnPropertySymbols(held).length >= 2,
    afterIsTick: 'callback' in after,
    sameMap: held !== null && sameMap(held, after),
  }),
);
await mock.close();
