// Exported tests at their smallest: a session of zero requests and of exactly one, each run as a file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { SEAL_KEY, replayDir, stepsOf, type ReplayStep } from '../helpers/replay-run.js';

const dir = replayDir();
test.after(() => dir.remove());

const seeded = () => createApp({ fixtures: demoFixture(), seed: 'export-edges', sealKey: SEAL_KEY, reset: true });

test('zero requests: the export holds no step, and the file runs and passes', async () => {
  const mock = await seeded();
  try {
    const text = await mock.control.exportTest();
    assert.equal(stepsOf(text), []);
    const run = dir.run('zero.test.mjs', text);
    assert.is(run.code, 0, run.out.slice(-2000));
  } finally {
    await mock.close();
  }
});

test('one request: the export holds exactly that step with its status, and the file passes one test (a 404, so a status written as 200 shows)', async () => {
  const mock = await seeded();
  try {
    const path = `/api/v3/projects/${DEMO.projects.support}/runs/00000000-0000-4000-8000-000000000000`;
    const answered = await mock.fetch(path, { headers: bearer(DEMO.tokens.owner) });
    assert.is(answered.status, 404);
    const text = await mock.control.exportTest();
    const steps = stepsOf(text) as (ReplayStep & { method: string; url: string; headers: Record<string, unknown> })[];
    assert.equal(
      steps.map((s) => [s.id, s.method, s.url, s.status, s.body]),
      [[1, 'GET', path, 404, null]],
    );
    // The credential it carried is in the file sealed, never as sent.
    const auth = steps[0].headers.authorization as { $sealed: string };
    assert.match(auth.$sealed, /^v1\./);
    assert.not.ok(text.includes(DEMO.tokens.owner));
    const run = dir.run('one.test.mjs', text);
    assert.is(run.code, 0, run.out.slice(-2000));
    assert.match(run.out, /# pass 1\n/);
  } finally {
    await mock.close();
  }
});

test.run();
