// Behaviour of injected faults: status and body, delay, next-N or until cleared, never on /_mock, reported in the journal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;

test('fault: status and body answer instead of the handler', async () => {
  const { http } = await freshMock();
  await http
    .post('/_mock/faults')
    .send({ method: 'GET', path: '/api/v3/projects/*/runs/*', status: 503, body: { detail: { reason_code: 'upstream_down', message: 'try later' } } });
  const res = await http.get(RUN).set(owner);
  assert.is(res.status, 503);
  assert.equal(res.body, { detail: { reason_code: 'upstream_down', message: 'try later' } });
  assert.match(res.headers['x-mock-fault'], /^flt_/);
});

test('fault: without a body the answer is empty', async () => {
  const { http } = await freshMock();
  await http.post('/_mock/faults').send({ method: 'GET', path: RUN, status: 404 });
  const res = await http.get(RUN).set(owner);
  assert.is(res.status, 404);
  assert.is(res.text, '');
});

test('fault: times = N hits the next N matching requests, then real handling resumes', async () => {
  const { http } = await freshMock();
  await http.post('/_mock/faults').send({ method: 'GET', path: RUN, status: 500, times: 2 });
  assert.is((await http.get(RUN).set(owner)).status, 500);
  assert.is((await http.get(RUN).set(owner)).status, 500);
  assert.is((await http.get(RUN).set(owner)).status, 200);
  assert.equal((await http.get('/_mock/faults')).body.items, []);
});

test('fault: without times it applies until cleared', async () => {
  const { http } = await freshMock();
  await http.post('/_mock/faults').send({ method: '*', path: '/api/**', status: 429 });
  for (let i = 0; i < 5; i++) assert.is((await http.get(RUN).set(owner)).status, 429);
  await http.delete('/_mock/faults');
  assert.is((await http.get(RUN).set(owner)).status, 200);
});

test('fault: delay_ms delays the real handling', async () => {
  const { http } = await freshMock();
  await http.post('/_mock/faults').send({ method: 'GET', path: RUN, delay_ms: 120, times: 1 });
  const t0 = performance.now();
  const res = await http.get(RUN).set(owner);
  assert.ok(performance.now() - t0 >= 110);
  assert.is(res.status, 200);
  assert.is(res.body.id, DEMO.runs.failedApi);
});

test('fault: delay and status together delay, then answer the status', async () => {
  const { mock, http } = await freshMock();
  await http.post('/_mock/faults').send({ method: 'GET', path: RUN, delay_ms: 60, status: 504 });
  const t0 = performance.now();
  const res = await http.get(RUN).set(owner);
  assert.ok(performance.now() - t0 >= 50);
  assert.is(res.status, 504);
  assert.is(res.text, '');
  assert.equal(mock.control.requests().at(-1)!.fault, { id: res.headers['x-mock-fault'], delay_ms: 60, status: 504 });
});

test('fault: matching is by method and by `*` = exactly one segment', async () => {
  const { http } = await freshMock();
  await http.post('/_mock/faults').send({ method: 'POST', path: '/api/v3/projects/*/runs/*', status: 500 });
  assert.is((await http.get(RUN).set(owner)).status, 200); // method differs
  await http.delete('/_mock/faults');
  await http.post('/_mock/faults').send({ method: 'GET', path: '/api/v3/projects/*', status: 500 });
  assert.is((await http.get(RUN).set(owner)).status, 200); // one segment only
});

test('fault: an injected answer changes no state', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  await http.post('/_mock/faults').send({ method: 'POST', path: '/api/v3/projects/*/runs/*/cancel', status: 502 });
  const res = await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(owner).send({});
  assert.is(res.status, 502);
  assert.is(res.text, '');
  assert.match(res.headers['x-mock-fault'], /^flt_\d+$/);
  assert.is(stateOf(mock), before);
});

test('fault: /_mock routes are never faulted', async () => {
  const { http } = await freshMock();
  await http.post('/_mock/faults').send({ method: '*', path: '/**', status: 500 });
  assert.is((await http.get('/_mock/health')).status, 200);
  assert.is((await http.get('/_mock/faults')).status, 200);
  assert.is((await http.get(RUN).set(owner)).status, 500);
});

test('fault: the journal records the faulted response with a fault marker', async () => {
  const { mock, http } = await freshMock();
  const fault = (await http.post('/_mock/faults').send({ method: 'GET', path: RUN, status: 503, body: { oops: true }, times: 1 })).body;
  await http.get(RUN).set(owner);
  await http.get(RUN).set(owner);
  const [faulted, real] = mock.control.requests();
  assert.equal(faulted.fault, { id: fault.id, status: 503 });
  assert.is(faulted.status, 503);
  assert.equal(faulted.response.body, { oops: true });
  assert.is(real.fault, undefined);
  assert.is(real.status, 200);
});

test('fault: a delay is marked in the journal too', async () => {
  const { mock, http } = await freshMock();
  mock.control.addFault({ method: 'GET', path: RUN, delay_ms: 5, times: 1 });
  await http.get(RUN).set(owner);
  const [entry] = mock.control.requests();
  assert.is(entry.fault?.delay_ms, 5);
  assert.is(entry.status, 200);
});

test('fault: faults are per instance', async () => {
  const a = await freshMock();
  const b = await freshMock();
  a.mock.control.addFault({ method: 'GET', path: '/**', status: 500 });
  assert.is((await a.http.get(RUN).set(owner)).status, 500);
  assert.is((await b.http.get(RUN).set(owner)).status, 200);
});

test('fault: the in-process API validates like the route', async () => {
  const { mock } = await freshMock();
  assert.throws(() => mock.control.addFault({ method: 'GET', path: '/x' }), /status/);
  assert.throws(() => mock.control.addFault({ method: 'GET', path: '/x', status: 700 }));
  assert.is(mock.control.clearFaults(), 0);
});

test('fault: when several faults match, the first one added answers (and only it is consumed)', async () => {
  const { mock, http } = await freshMock();
  await http.post('/_mock/faults').send({ method: 'GET', path: RUN, status: 503, times: 1 });
  await http.post('/_mock/faults').send({ method: '*', path: '/api/**', status: 429, times: 1 });
  assert.is((await http.get(RUN).set(owner)).status, 503);
  assert.equal(
    mock.control.faults().map((f) => [f.status, f.remaining]),
    [[429, 1]],
  );
  assert.is((await http.get(RUN).set(owner)).status, 429);
  const real = await http.get(RUN).set(owner);
  assert.is(real.status, 200);
  assert.is(real.body.id, DEMO.runs.failedApi);
});

test.run();
