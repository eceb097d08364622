// The verify suites' journal: four known requests against a fresh demo mock, and the paths they use.
import { AssertionError } from 'node:assert';
import { freshMock } from './app.js';
import { DEMO, bearer } from './demo.js';
import type { MockApp } from '../../src/app.js';

const P = DEMO.projects.support;
export const owner = bearer(DEMO.tokens.owner);
export const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
export const MISSING = `/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`;
export const CANCEL = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
export const USERS = `/api/v3/projects/${P}/users`;

/** Four requests: #1 GET run 200, #2 GET missing run 404, #3 POST cancel with a body, #4 GET users?limit=2. */
async function traffic(mock: MockApp): Promise<void> {
  await mock.fetch(RUN, { headers: owner });
  await mock.fetch(MISSING, { headers: { ...owner, 'X-Trace': 'abc' } });
  await mock.fetch(CANCEL, {
    method: 'POST',
    headers: { ...owner, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'stop', tags: ['a', { k: 1 }] }),
  });
  await mock.fetch(`${USERS}?limit=2&tag=x&tag=y`, { headers: owner });
}

export async function setup() {
  const t = await freshMock();
  await traffic(t.mock);
  return t;
}

/** The AssertionError `fn` throws (anything else it throws is rethrown; not throwing fails). */
export function catchError(fn: () => unknown): AssertionError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AssertionError) return e;
    throw e;
  }
  throw new Error('did not throw');
}
