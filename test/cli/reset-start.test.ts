// A reset, the inspector's Reset button and a fixture load return to what the instance was started with: the CLI's
// --simulation, --speed, --traffic and --retain-days hold again afterwards (the living demo keeps living).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';
import { startCli } from '../helpers/cli.js';

const json = { 'Content-Type': 'application/json' };

test('createApp: start settings hold at start and again after reset and a fixture load; without them the fixture rules', async () => {
  let real = 1_000_000;
  const mock = await createApp({
    storage: 'memory',
    fixtures: demoFixture(),
    clock: () => real,
    simulation: { mode: 'step', start: { mode: 'auto', speed: 60, traffic: 12, retentionDays: 3 } },
  });
  const expected = (now: string) => ({
    mode: 'auto',
    speed: 60,
    clock: 'running',
    now,
    traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 12, senders: 20 }],
    retention_days: 3,
  });
  const view = () => {
    const s = mock.control.simulation();
    return { mode: s.mode, speed: s.speed, clock: s.clock, now: s.now, traffic: s.traffic, retention_days: s.retention_days };
  };
  assert.equal(view(), expected(DEMO.now));
  real += 1000; // one real second at speed 60 is a simulated minute
  assert.is(mock.control.now(), '2026-11-20T12:01:00.000Z');

  await mock.control.setSimulation({ mode: 'off', speed: 1, clock: 'frozen', traffic: [] });
  await mock.control.reset();
  assert.equal(view(), expected(DEMO.now), 'reset: back to the fixture, then the start settings over it');
  real += 500;
  assert.is(mock.control.now(), '2026-11-20T12:00:30.000Z', 'the clock runs again after the reset');

  await mock.control.setSimulation({ mode: 'off', clock: 'frozen' });
  await mock.control.loadFixtures({ ...demoFixture(), now: '2026-12-01T00:00:00.000Z' });
  assert.equal(view(), expected('2026-12-01T00:00:00.000Z'), 'a fixture load: the start settings over the new fixture');
  await mock.close();

  const plain = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => real });
  await plain.control.setSimulation({ mode: 'auto', speed: 5, clock: 'running' });
  await plain.control.reset();
  const s = plain.control.simulation();
  assert.equal([s.mode, s.speed, s.clock, s.now, s.traffic], ['off', 1, 'frozen', DEMO.now, []], 'no start settings: reset is the fixture as written');
  await plain.close();
});

test('createApp: --traffic covers the chat bindings of the fixture loaded later, keeping other sources', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: {}, simulation: { start: { traffic: 6 } } });
  assert.equal(mock.control.simulation().traffic, [], 'no chat binding, no source');
  await mock.control.loadFixtures(demoFixture());
  assert.equal(mock.control.simulation().traffic, [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 6, senders: 20 }]);
  await mock.close();
});

test('cli: POST /_mock/reset and POST /_mock/fixtures keep --speed, --traffic and --simulation; the clock keeps running', async () => {
  const cli = await startCli(['--port', '0', '--memory', '--speed', '600', '--traffic', '30', '--simulation', 'step']);
  const get = async (path: string): Promise<any> => (await fetch(cli.url + path)).json();
  const settings = async () => {
    const s = await get('/_mock/simulation');
    return { mode: s.mode, speed: s.speed, clock: s.clock, traffic: s.traffic };
  };
  const started = { mode: 'step', speed: 600, clock: 'running', traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 30, senders: 20 }] };
  assert.equal(await settings(), started);
  await fetch(`${cli.url}/_mock/simulation`, { method: 'PUT', headers: json, body: JSON.stringify({ mode: 'off', speed: 1, clock: 'frozen', traffic: [] }) });
  assert.equal((await get('/_mock/clock')).frozen_at !== null, true);

  const reset = await fetch(`${cli.url}/_mock/reset`, { method: 'POST' });
  assert.is(reset.status, 200);
  assert.equal(await settings(), started);
  const clock = await get('/_mock/clock');
  assert.is(clock.frozen_at, null);
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(Date.parse((await get('/_mock/clock')).now) > Date.parse(clock.now), 'the clock runs after the reset');

  await fetch(`${cli.url}/_mock/simulation`, { method: 'PUT', headers: json, body: JSON.stringify({ clock: 'frozen', traffic: [] }) });
  const loaded = await fetch(`${cli.url}/_mock/fixtures`, { method: 'POST', headers: json, body: JSON.stringify(demoFixture()) });
  assert.is(loaded.status, 200);
  assert.equal(await settings(), started);
  assert.is((await get('/_mock/clock')).frozen_at, null);
  assert.is(await cli.stop(), 0);
});

test.run();
