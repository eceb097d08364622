// Runs before each test file, in its worker thread: a sandbox of its own on the shared server, dropped after the file.
// Its tests import `mock` (the typed client bound to the sandbox) and never see another file's state. Each request
// names the test that sent it in an X-Test-Name header: the inspector's session waterfall shows one test's requests.
import { threadId } from 'node:worker_threads';
import { afterAll, expect, inject } from 'vitest';
import { createClient } from 'project-runtime-mock/client';

/** The current test's name as a header value (header values are Latin-1 text: anything else becomes `?`). */
const testName = () => (expect.getState().currentTestName ?? '').replace(/[^\x20-\x7e]/g, '?');
const named = (request: Request) => {
  if (testName()) request.headers.set('X-Test-Name', testName());
  return fetch(request);
};

const server = createClient({ baseUrl: inject('mockUrl'), token: 'demo-owner-token', fetch: named });
export const mock = await server.control.createSandbox({ name: `vitest-thread-${threadId}` });
afterAll(() => server.control.deleteSandbox(mock.sandbox.id));
