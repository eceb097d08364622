// docs/tutorial.md shows what a failed verify says when the tutorial's expected reason is changed: the same requests,
// verified with that reason, give that text word for word. (test/run.mjs and the consumer test run the recipe itself.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, demoFixture } from '../../src/index.js';
import { createClient } from '../../src/client/index.js';
import { ROOT } from '../helpers/cli.js';

const page = readFileSync(join(ROOT, 'docs/tutorial.md'), 'utf8');
const RUN_PATH = '/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/runs/391206e3-21b8-4eae-b109-2fe71e9c7b14';

test('docs/tutorial.md: the failure shown in "Watch it fail" is the one the changed test gives', async () => {
  const shown = /## 5\. Watch it fail[\s\S]*?```text\n([\s\S]*?)\n```/.exec(page)?.[1];
  assert.ok(shown, 'the failure block');
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  try {
    const server = createClient({ baseUrl: 'http://localhost', token: 'demo-owner-token', fetch: mock.fetch });
    const sandbox = await server.control.createSandbox({ name: 'tutorial' });
    const res = await mock.fetch(`${sandbox.sandbox.base_url}${RUN_PATH}/cancel`, {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-operator-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'customer asked' }),
    });
    assert.is(res.status, 200);
    const failed = await sandbox.control
      .verify({ request: { operation: 'cancelRun', body: { reason: 'customer changed their mind' } }, count: { exactly: 1 } })
      .then(
        () => undefined,
        (err: Error) => err,
      );
    assert.instance(failed, Error);
    assert.is(failed!.name, 'AssertionError');
    assert.is(failed!.message, shown);
  } finally {
    await mock.close();
  }
});

test('docs/tutorial.md: the test it shows is the recipe file, and npm test runs it', () => {
  assert.match(page, '<!-- example: examples/tutorial.test.mjs -->');
  assert.match(readFileSync(join(ROOT, 'test/run.mjs'), 'utf8'), "'examples/tutorial.test.mjs'");
});

test.run();
