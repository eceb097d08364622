// A sandbox's end is one instant, in memory and with the JSON file: a delete orders against every request to the
// sandbox (no 5xx, no 200 written after the delete's, nothing stored after it), a delay fault's wait and a slow body
// are cut short by it, and a request in flight keeps the sandbox alive past its time to live until it is answered.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { JsonFileAdapter, MemoryAdapter } from '../../src/storage/adapters.js';
import { SandboxGone } from '../../src/storage/sandbox-gone.js';
import { P, delayedWrite, inFlightPastTtl, raceDelete, serve, slowBodyWrite, type Served } from '../helpers/sandbox-end.js';

const dir = mkdtempSync(join(tmpdir(), 'prm-sandbox-end-'));
const servers: Record<string, Served> = {};
test.before(async () => {
  servers.memory = await serve(await createApp({ storage: new MemoryAdapter(), fixtures: demoFixture() }));
  servers['json-file'] = await serve(await createApp({ storage: new JsonFileAdapter(join(dir, 'db.json')), fixtures: demoFixture() }));
});
test.after(async () => {
  for (const s of Object.values(servers)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const name of ['memory', 'json-file']) {
  test(`${name}: a delete among 60 concurrent writes and reads: 200 only before the delete's answer, 404 after, nothing stored after`, async () => {
    const s = servers[name];
    for (let round = 0; round < 5; round++) {
      // The sandbox's state as it ends, read through its in-process control kept from before the delete.
      let control: ReturnType<typeof s.mock.control.sandboxControl> | undefined;
      let before = 0;
      const ran = await raceDelete([s], round, (id) => {
        control = s.mock.control.sandboxControl(id);
        before = control.exportState().runs.length;
      });
      const state = control!.exportState();
      assert.is(state.runs.length, before + ran.runs.length, 'one stored run per run create answered 200, none more');
      // Its store refuses any later write: the gate is inside the commit, whoever asks.
      try {
        await control!.createRun(P, {});
        assert.unreachable('a write after the end was stored');
      } catch (err) {
        assert.instance(err, SandboxGone);
      }
    }
  });

  test(`${name}: a write held by a delay fault answers 404 when the sandbox is deleted meanwhile, before the delete answers`, async () => {
    await delayedWrite(servers[name], servers[name]);
  });

  test(`${name}: a write whose body is still arriving answers 404 when the sandbox is deleted meanwhile`, async () => {
    await slowBodyWrite(servers[name], servers[name]);
  });

  test(`${name}: a write in flight keeps the sandbox alive past its time to live until it is answered`, async () => {
    await inFlightPastTtl(servers[name], servers[name]);
  });
}

test.run();
