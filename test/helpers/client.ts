// One built CLI per test file, driven by the typed client as the demo owner; reset to the fixtures before each test.
import type { Test } from 'uvu';
import { createClient, type MockClient } from 'project-runtime-mock/client';
import { startCli, type RunningCli } from './cli.js';
import { DEMO } from './demo.js';

export interface CliClient {
  cli: RunningCli;
  client: MockClient;
}

/** Registers the suite's hooks; the returned object is filled in before the first test runs. */
export function cliClient(test: Test): CliClient {
  const out = {} as CliClient;
  test.before(async () => {
    out.cli = await startCli(['--memory', '--port', '0']);
    out.client = createClient({ baseUrl: out.cli.url, token: DEMO.tokens.owner });
  });
  test.after(async () => {
    await out.cli?.stop();
  });
  test.before.each(async () => {
    await out.client.control.reset();
  });
  return out;
}
