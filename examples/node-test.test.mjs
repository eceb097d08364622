// Recipe (node:test): one mock per file, snapshot/restore before each test, the clock, faults and the journal; imports the built package.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, demoFixture } from '../dist/index.js';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const AUTH = { Authorization: 'Bearer demo-owner-token' };

describe('project-runtime-mock with node:test', () => {
  let mock, server, base, clean;

  before(async () => {
    mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'node-test' });
    server = (await import('node:http')).createServer(mock.callback());
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${server.address().port}`;
    clean = mock.control.snapshot(); // cheap: restore it before every test
  });

  after(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(async () => {
    await mock.control.restore(clean);
    mock.control.clearRequests();
    mock.control.clearFaults();
  });

  test('a queued run can be cancelled', async () => {
    const run = await mock.control.createRun(PROJECT, { status: 'queued' });
    const res = await fetch(`${base}/api/v3/projects/${PROJECT}/runs/${run.id}/cancel`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).status, 'cancelled');
  });

  test('an approval expires when the clock moves past it', async () => {
    const run = await mock.control.createRun(PROJECT, { status: 'waiting_approval', approval: { expires_in_ms: 60_000 } });
    await mock.control.advanceClock(60_000);
    const res = await fetch(`${base}/api/v3/projects/${PROJECT}/approvals/${run.approval.approval_id}`, { headers: AUTH });
    assert.equal((await res.json()).status, 'expired');
  });

  test('a fault answers 503 once, and the journal shows it', async () => {
    mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/jobs', status: 503, times: 1 });
    assert.equal((await fetch(`${base}/api/v3/projects/${PROJECT}/jobs`, { headers: AUTH })).status, 503);
    assert.equal((await fetch(`${base}/api/v3/projects/${PROJECT}/jobs`, { headers: AUTH })).status, 200);
    const [faulted, real] = mock.control.requests({ path: '/jobs' });
    assert.equal(faulted.fault.status, 503);
    assert.equal(real.status, 200);
    assert.equal(real.request.headers.authorization, '[redacted]');
  });

  test('the state is back to the fixtures in every test', async () => {
    assert.equal(mock.control.requests().length, 0);
    assert.equal(mock.control.now(), '2026-11-20T12:00:00.000Z');
  });
});
