// The client report's rules key on the principal and the operation together: a refusal with Retry-After that one
// principal got says nothing of another principal's request to the same operation, nor of the same principal's
// request to another operation; the Retry-After itself is passed at exactly its end (mock clock).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const JOBS = `/api/v3/projects/${P}/jobs`;
const A = bearer(DEMO.tokens.owner);
const B = bearer(DEMO.tokens.operator);

async function setup() {
  const m = await freshMock();
  const advance = (ms: number) => m.http.post('/_mock/clock').send({ advance_ms: ms }).expect(200);
  // The first request answers 503 with Retry-After: 10 (a refusal the client must wait out).
  await m.http
    .post('/_mock/faults')
    .send({ method: 'GET', path: RUN, status: 503, headers: { 'Retry-After': '10' }, times: 1 })
    .expect(200);
  const findings = async () =>
    (await m.http.get('/_mock/client-report').expect(200)).body.findings
      .filter((f: { rule: string }) => f.rule === 'retry_after_ignored')
      .map((f: { entries: number[]; message: string }) => [f.entries, f.message]);
  return { m, advance, findings };
}

test("client report: another principal calling the same operation during A's Retry-After is no finding; A is", async () => {
  const { m, advance, findings } = await setup();
  assert.is((await m.http.get(RUN).set(A)).status, 503); // #1, A refused
  await advance(1_000);
  assert.is((await m.http.get(RUN).set(B)).status, 200); // #2, B: not A's refusal
  await m.http.get(JOBS).set(A).expect(200); // #3, A: another operation
  assert.equal(await findings(), []);
  await advance(4_000);
  await m.http.get(RUN).set(A).expect(200); // #4, A: 5 s early
  assert.equal(await findings(), [[[1, 4], 'Request 4 (getRun) came 5 s before the Retry-After of request 1 (503) had passed.']]);
});

test('client report: a retry at exactly the end of Retry-After is in time; one ms before is early', async () => {
  const early = await setup();
  assert.is((await early.m.http.get(RUN).set(A)).status, 503);
  await early.advance(9_999);
  await early.m.http.get(RUN).set(A).expect(200);
  assert.equal(
    (await early.findings()).map((f: [number[], string]) => f[0]),
    [[1, 2]],
  );
  const onTime = await setup();
  assert.is((await onTime.m.http.get(RUN).set(A)).status, 503);
  await onTime.advance(10_000);
  await onTime.m.http.get(RUN).set(A).expect(200);
  assert.equal(await onTime.findings(), []);
});

test.run();
