// Recipe: sandboxes in process. One createApp, a sandbox per test that wants its own clock or state, reached by
// mock.fetch (its base_url, or the X-Mock-Sandbox header) and by the typed client bound to it (test/sandboxes/sandbox-clients.test.ts).
import assert from 'node:assert/strict';
import { createApp, demoFixture } from 'project-runtime-mock';
import { createClient } from 'project-runtime-mock/client';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const RUN = '391206e3-21b8-4eae-b109-2fe71e9c7b14';
const owner = { Authorization: 'Bearer demo-owner-token' };
const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });

// 1. mock.control.createSandbox: the same body as POST /_mock/sandboxes; base_url is http://localhost/sandboxes/{id}.
const sandbox = await mock.control.createSandbox({ name: 'in-process', clock: { now: '2030-01-01T00:00:00Z' } });
const cancel = await mock.fetch(`${sandbox.base_url}/api/v3/projects/${PROJECT}/runs/${RUN}/cancel`, { method: 'POST', headers: owner });
assert.equal(cancel.status, 200);
const byHeader = await mock.fetch(`/api/v3/projects/${PROJECT}/runs/${RUN}`, { headers: { ...owner, 'X-Mock-Sandbox': sandbox.id } });
assert.equal(((await byHeader.json()) as { status: string }).status, 'cancelled');
const atRoot = await mock.fetch(`/api/v3/projects/${PROJECT}/runs/${RUN}`, { headers: owner });
assert.equal(((await atRoot.json()) as { status: string }).status, 'waiting_approval'); // the default mock is untouched

// 2. The typed client over mock.fetch: control.createSandbox resolves with a client bound to the new sandbox.
const client = createClient({ baseUrl: 'http://localhost', token: 'demo-owner-token', fetch: mock.fetch });
const second = await client.control.createSandbox({ name: 'typed', seed: 'repeatable' });
assert.equal((await second.getRun(PROJECT, RUN)).data?.status, 'waiting_approval'); // from the server's fixtures, not the first sandbox
assert.equal((await second.control.clock()).now, '2026-11-20T12:00:00.000Z');
assert.equal((await mock.control.sandboxControl(sandbox.id).requests()).length, 2);

export const seen = { sandboxes: (await mock.control.sandboxes()).items.map((s) => s.name), first: sandbox, second: second.sandbox };
await mock.close();
