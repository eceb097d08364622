// The inspector's fault form: each kind makes the document POST /_mock/faults takes (accepted by the mock), and each
// fault is described in one line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EMPTY_FORM, describeFault, faultSpec, type FaultForm } from '../../src/inspector/page/fault-form.js';
import { freshMock } from '../helpers/app.js';

const made = (changes: Partial<FaultForm>) => {
  const r = faultSpec({ ...EMPTY_FORM, ...changes });
  if ('error' in r) throw new Error(r.error);
  return r.spec;
};

test('fault form: every kind makes a document the mock accepts', async () => {
  const { http } = await freshMock();
  const cases: [Partial<FaultForm>, object][] = [
    [
      { status: '503', body: '{"detail":"x"}', headers: '{"Retry-After":"5"}' },
      { method: 'GET', path: '/api/v3/**', status: 503, body: { detail: 'x' }, headers: { 'Retry-After': '5' }, times: 1 },
    ],
    [
      { kind: 'delay', delay: 'uniform', min_ms: '5', max_ms: '20', times: '' },
      { method: 'GET', path: '/api/v3/**', delay_ms: { distribution: 'uniform', min_ms: 5, max_ms: 20 } },
    ],
    [
      { kind: 'delay', delay: 'lognormal', median_ms: '10', p99_ms: '90', after: '2', probability: '0.5' },
      { method: 'GET', path: '/api/v3/**', delay_ms: { distribution: 'lognormal', median_ms: 10, p99_ms: 90 }, times: 1, after: 2, probability: 0.5 },
    ],
    [
      { kind: 'rate_limit', requests: '10', per_ms: '60000', times: '', after: '3' },
      { method: 'GET', path: '/api/v3/**', rate_limit: { requests: 10, per_ms: 60000 } },
    ],
    [
      { kind: 'transport', transport: 'slow_body', bytes_per_s: '512' },
      { method: 'GET', path: '/api/v3/**', transport: 'slow_body', bytes_per_s: 512, times: 1 },
    ],
    [
      { kind: 'transport', transport: 'hang', bytes_per_s: '512', operation: 'getRun', principal: 'p1', match: '{"query":{"a":"1"}}' },
      { method: 'GET', path: '/api/v3/**', match: { query: { a: '1' }, operation: 'getRun', principal: 'p1' }, transport: 'hang', times: 1 },
    ],
  ];
  for (const [form, spec] of cases) {
    const doc = made(form);
    assert.equal(doc, spec);
    const res = await http.post('/_mock/faults').send(doc);
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
});

test('fault form: JSON the page can check itself is refused before sending', () => {
  assert.equal(faultSpec({ ...EMPTY_FORM, body: '{nope' }), { error: 'The body is not valid JSON.' });
  assert.equal(faultSpec({ ...EMPTY_FORM, match: '[1]' }), { error: 'Match should be a JSON object.' });
  assert.equal(faultSpec({ ...EMPTY_FORM, headers: 'x' }), { error: 'Headers is not valid JSON.' });
});

test('fault descriptions name what each kind does', () => {
  assert.is(describeFault({ status: 503 }), 'status 503');
  assert.is(describeFault({ rate_limit: { requests: 10, per_ms: 60000 } }), '429 past 10 per 60000 ms');
  assert.is(describeFault({ transport: 'slow_body', bytes_per_s: 512 }), 'slow_body at 512 B/s');
  assert.is(
    describeFault({ transport: 'reset', delay_ms: 5, after: 2, probability: 0.5, match: { operation: 'getRun' } }),
    'reset, waits 5 ms, after 2, p=0.5, when operation',
  );
  assert.is(describeFault({ delay_ms: { distribution: 'uniform', min_ms: 5, max_ms: 20 } }), 'waits 5-20 ms');
  assert.is(describeFault({ delay_ms: { distribution: 'lognormal', median_ms: 10, p99_ms: 90 } }), 'waits ~10 ms (p99 90)');
});

test.run();
