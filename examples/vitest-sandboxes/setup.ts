// Runs before each test file, in its worker thread: a sandbox of its own on the shared server, dropped after the file.
// Its tests import `mock` (the typed client bound to the sandbox) and never see another file's state.
import { threadId } from 'node:worker_threads';
import { afterAll, inject } from 'vitest';
import { createClient } from 'project-runtime-mock/client';

const server = createClient({ baseUrl: inject('mockUrl'), token: 'demo-owner-token' });
export const mock = await server.control.createSandbox({ name: `vitest-thread-${threadId}` });
afterAll(() => server.control.deleteSandbox(mock.sandbox.id));
