// Recipe: test a client's retry logic against faults that production has (test/control/faults/retry-recipe.test.ts runs it).
// The client's sleep advances the mock clock, so a 30 s Retry-After costs no real time and is asserted exactly.
import { createApp, demoFixture } from 'project-runtime-mock';
import { getJson } from './retry-client.js';

const API = 'https://api.example.test';
const RUN = '/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/runs/a7072153-3dfa-470d-aaf0-be9f68012cd1';
const AUTH = { authorization: 'Bearer demo-owner-token' };

export async function retryRecipe() {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'retry-recipe' });
  const sleeps: number[] = [];
  const options = { attempts: 4, backoffMs: 100, timeoutMs: 200, sleep: (ms: number) => (sleeps.push(ms), mock.control.advanceClock(ms)) };
  using _ = mock.intercept(API); // the client keeps its production base URL

  // 1. The first two calls fail: backoff 100, then 200 ms, and the third succeeds.
  mock.control.addFault({ method: 'GET', path: RUN, status: 503, times: 2 });
  const run = (await getJson(API + RUN, AUTH, options)) as { status: string };
  mock.control.verify({ request: { operation: 'getRun' }, count: { exactly: 3 } });
  const backoff = sleeps.splice(0);

  // 2. "The third call fails" (after: 2): the client retries it once and moves on.
  mock.control.clearRequests();
  mock.control.addFault({ method: 'GET', path: RUN, status: 502, after: 2, times: 1 });
  for (let i = 0; i < 3; i++) await getJson(API + RUN, AUTH, options);
  mock.control.verifySequence({ requests: [{ status: 200 }, { status: 200 }, { status: 502 }, { status: 200 }] });
  const afterTwo = sleeps.splice(0);

  // 3. A rate limit: the second call gets 429 with Retry-After: 30; the client waits exactly that on the mock clock.
  await mock.control.setClock('2026-11-20T12:00:00Z');
  mock.control.addFault({ method: 'GET', path: RUN, rate_limit: { requests: 1, per_ms: 30_000 } });
  await getJson(API + RUN, AUTH, options);
  await getJson(API + RUN, AUTH, options);
  const retryAfter = sleeps.splice(0);
  mock.control.clearFaults();

  // 4. A hang: every attempt times out, and the client gives up with the timeout's error.
  mock.control.addFault({ method: 'GET', path: RUN, transport: 'hang' });
  const gaveUp = await getJson(API + RUN, AUTH, { ...options, attempts: 2 }).catch((err: Error) => err);
  mock.control.clearFaults();

  return { runStatus: run.status, backoff, afterTwo, retryAfter, gaveUp };
}
