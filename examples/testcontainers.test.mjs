// The mock's container image started by Testcontainers for one test file (node:test); needs Docker or podman.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeMockContainer } from 'project-runtime-mock/testcontainers';

const SUPPORT_DESK = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const WAITING_RUN = '391206e3-21b8-4eae-b109-2fe71e9c7b14';
let mock;

before(async () => {
  mock = await new RuntimeMockContainer().withControlToken('test-token').start();
});
after(async () => {
  await mock?.stop();
});

test('a run cancelled in a sandbox of the container', async () => {
  const client = mock.client({ token: 'demo-operator-token' });
  const sandbox = await client.control.createSandbox({ name: 'cancel' });
  const { data } = await sandbox.cancelRun(SUPPORT_DESK, WAITING_RUN);
  assert.equal(data.status, 'cancelled');
  // The shared state is untouched.
  assert.equal((await client.getRun(SUPPORT_DESK, WAITING_RUN)).data.status, 'waiting_approval');
  console.log(`mock at ${mock.baseUrl}`);
});
