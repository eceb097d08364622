// The simulation over time: determinism for a seed, restarts resuming the same future, the JSON data file, a running clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';
import { DEMO } from '../helpers/demo.js';
import { freshMock } from '../helpers/app.js';
import { DAY, HOUR, P, advance, chat, getRun, owner, simFixture, simMock } from '../helpers/simulation.js';
import { SEAL_KEY } from '../helpers/replay-run.js';

test('determinism: two instances with the same seed, fixtures, requests and clock moves give byte-identical GET /_mock/state', async () => {
  const script = async (seed: number) => {
    // One seal key for both: the state's sealed settings are byte-identical only under the same key (the seed never gives it).
    const m = await simMock({ traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 30 }] }, { seed, sealKey: SEAL_KEY });
    const first = await chat(m, 'one', 7, 9001);
    await advance(m, 3000);
    await chat(m, 'two', 8, 9002);
    await advance(m, 2 * HOUR);
    const pending = (await m.http.get(`/api/v3/projects/${P}/approvals?status=pending`).set(owner)).body.items;
    if (pending[0]) await m.http.post(`/api/v3/projects/${P}/approvals/${pending[0].approval_id}/deny`).set(owner).send({});
    await m.http.post(`/api/v3/projects/${P}/runs/${first}/cancel`).set(owner).send({});
    await advance(m, DAY);
    return (await m.http.get('/_mock/state')).text;
  };
  const a = await script(42);
  assert.ok(a.includes('traffic.message'));
  sameBytes(await script(42), a);
  assert.is.not(await script(43), a);
});

/** Byte equality that fails fast: uvu's diff of two multi-megabyte states that differ in many places runs for minutes,
 * so a failure names the first differing offset and the text around it instead. */
function sameBytes(actual: string, expected: string): void {
  if (actual === expected) return;
  let i = 0;
  while (actual[i] === expected[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 80), i + 80));
  assert.unreachable(
    `states differ from offset ${i} (lengths ${actual.length} and ${expected.length}):\n  got      ${around(actual)}\n  expected ${around(expected)}`,
  );
}

test('a restart resumes the same future: pending events are in the data file', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'prm-sim-')), 'db.json');
  // No createApp seed: a seeded id sequence starts over in a new process (ids are drawn afresh; the simulation's seed is stored).
  const options = { fixtures: simFixture(), simulation: { mode: 'auto' as const } };
  const first = await createApp({ storage: new JsonFileAdapter(file), ...options });
  const m1 = { mock: first, http: request(first.callback()) };
  const id = await chat(m1);
  await advance(m1, 1500);
  const pending = first.control.simulation().pending;
  await first.close();
  const second = await createApp({ storage: new JsonFileAdapter(file), ...options });
  assert.equal(second.control.simulation().pending, pending);
  const m2 = { mock: second, http: request(second.callback()) };
  await advance(m2, HOUR);
  const run = await getRun(m2, id);
  assert.equal([run.status, run.timing.end_to_end_ms, run.cost_usd], ['succeeded', 64_200, 0.003]);
  await second.close();
});

test('on the JSON data file a long run ends in the same state as in memory: the engine runs ahead of storage, which stores it in groups', async () => {
  const fixture = simFixture({ traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 20 }] });
  const finalState = async (storage: 'memory' | JsonFileAdapter) => {
    const mock = await createApp({ storage, fixtures: fixture, seed: 8, simulation: { mode: 'auto' } });
    await mock.control.runSimulation({ until: '2026-11-21T12:00:00.000Z' });
    await mock.control.advanceClock(HOUR);
    const state = JSON.stringify(mock.control.exportState());
    await mock.close();
    return state;
  };
  const file = join(mkdtempSync(join(tmpdir(), 'prm-sim-')), 'db.json');
  const onDisk = await finalState(new JsonFileAdapter(file));
  assert.is(onDisk, await finalState('memory'));
  assert.ok(onDisk.includes('"traffic.message"'));
  const reloaded = await createApp({ storage: new JsonFileAdapter(file), fixtures: fixture, seed: 8 });
  assert.is(JSON.stringify(reloaded.control.exportState()), onDisk, 'and the file holds all of it');
  await reloaded.close();
});

test('a running clock fires events as real time passes, at `speed`; close() stops it', async () => {
  const fixture = simFixture(
    { behaviours: { projects: [{ project_id: P, queue_wait_ms: 1000, steps: [{ name: 'answer', step_type: 'model', duration_ms: 3000 }] }] } },
    (f) => delete f.now,
  );
  const m = await freshMock({ fixtures: fixture, seed: 1, simulation: { mode: 'auto' } });
  await m.mock.control.setSimulation({ speed: 1000 });
  assert.is(m.mock.control.simulation().clock, 'running');
  const id = await chat(m);
  let run = await getRun(m, id);
  for (let i = 0; i < 200 && run.status !== 'succeeded'; i++) {
    await new Promise((r) => setTimeout(r, 25));
    run = await getRun(m, id);
  }
  assert.is(run.status, 'succeeded');
  assert.equal([run.timing.queue_wait_ms, run.timing.model_ms, run.timing.end_to_end_ms], [1000, 3000, 4000], 'each transition stamped with its due time');
  await m.mock.close();
  const later = await chat(m);
  await new Promise((r) => setTimeout(r, 100));
  assert.is((await getRun(m, later)).status, 'queued');
});

test('a fixture asking for a running clock in auto mode starts it from its `now`; embedded (off) it stays frozen', async () => {
  const fixture = simFixture({ clock: 'running', speed: 60 });
  const live = await createApp({ storage: 'memory', fixtures: fixture, simulation: { mode: 'auto' } });
  const c = live.control.clock();
  assert.is(c.frozen_at, null);
  assert.ok(Date.parse(c.now) >= Date.parse(DEMO.now) && Date.parse(c.now) < Date.parse(DEMO.now) + 10 * 60_000, c.now);
  assert.is(live.control.simulation().speed, 60);
  await live.close();
  const embedded = await createApp({ storage: 'memory', fixtures: fixture });
  assert.is(embedded.control.clock().frozen_at, DEMO.now);
});

test.run();
