// Recipe (Playwright): a worker-scoped fixture that gives each Playwright worker its own sandbox on one shared mock
// server, and the pages a base URL that reaches it. test/sandboxes/sandbox-playwright-recipe.test.ts runs it as Playwright does (set up,
// use, tear down, once per worker) with four workers at once in Chromium.
import { createClient, type ClientOptions, type MockClient } from 'project-runtime-mock/client';

export interface WorkerSandbox {
  id: string;
  /** `http://{id}.localhost:{port}`: the web app under test needs only this (browsers resolve *.localhost to loopback). */
  baseURL: string;
  /** `{server}/sandboxes/{id}`: the same sandbox by its path prefix, for a client that reaches the server by another name. */
  prefixURL: string;
  /** The typed client bound to this sandbox (the same v3 and control methods): arrange state and assert on it. */
  mock: MockClient;
}

type Use<T> = (value: T) => Promise<void>;

/**
 * `base.extend<object, { sandbox: WorkerSandbox }>(sandboxFixtures({ baseUrl: process.env.MOCK_URL!, token }))`: one
 * sandbox per worker, created before its first test and dropped after its last (its TTL drops it if a worker dies).
 */
export function sandboxFixtures(server: ClientOptions) {
  const root = createClient(server);
  // Playwright reads the fixtures a fixture needs from its first parameter, which must be a destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  const sandbox = async ({}, use: Use<WorkerSandbox>, workerInfo: { workerIndex: number }): Promise<void> => {
    const mock = await root.control.createSandbox({ name: `playwright-worker-${workerInfo.workerIndex}` });
    const { id, base_url } = mock.sandbox;
    const url = new URL(server.baseUrl);
    try {
      await use({ id, baseURL: `${url.protocol}//${id}.localhost${url.port ? `:${url.port}` : ''}`, prefixURL: base_url, mock });
    } finally {
      await root.control.deleteSandbox(id);
    }
  };
  return { sandbox: [sandbox, { scope: 'worker' }] as [typeof sandbox, { scope: 'worker' }] };
}
