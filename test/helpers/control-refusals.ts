// For the control-guard suites: a check of a refusal's reason code, and a write that dirties state so that a refusal
// can be seen to change nothing.
import * as assert from 'uvu/assert';
import type { freshMock } from './app.js';
import { DEMO } from './demo.js';

/** Returns a check that an error body carries this reason code. */
export const envelope = (reason_code: string) => (body: { detail: { reason_code: string } }) => assert.is(body.detail.reason_code, reason_code);

/** A write that changes state, so that a refusal can be seen to change nothing. */
export async function dirty(http: Awaited<ReturnType<typeof freshMock>>['http']) {
  const r = await http.post(`/_mock/projects/${DEMO.projects.support}/runs`).send({ status: 'running' });
  assert.is(r.status, 200);
}
