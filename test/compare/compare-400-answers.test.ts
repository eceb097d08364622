// Conformance and shadow (one comparator) compare a 400 answer as the error it is (the first status of the error
// range): its envelope kind, reason code and next_action, not its schema as a success; the same 400 is no difference.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compareAnswers } from '../../src/conformance/compare.js';
import type { Answer } from '../../src/compare/index.js';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';

const BAD_GRANT = { grant_type: 'authorization_code', code: 'nope', code_verifier: 'x'.repeat(43) };

async function badGrant(): Promise<Answer> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const res = await mock.fetch('/api/v3/auth/token', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(BAD_GRANT) });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() };
}
const copy = (a: Answer): Answer & { body: any } => structuredClone(a) as Answer & { body: any };

test('400: the same answer is no difference; another message text is data, not a difference', async () => {
  const a = await badGrant();
  assert.equal(a.body, { detail: { reason_code: 'invalid_grant', message: 'The authorization code is unknown.', next_action: 'authenticate' } });
  assert.equal(compareAnswers('exchangeToken', a, copy(a)), { differences: [], compatible: [], warnings: [] });
  const worded = copy(a);
  worded.body.detail.message = 'Bad code.';
  assert.equal(compareAnswers('exchangeToken', a, worded), { differences: [], compatible: [], warnings: [] });
});

test('400: another reason code, a missing next_action, another envelope kind are each a difference', async () => {
  const a = await badGrant();
  const renamed = copy(a);
  renamed.body.detail.reason_code = 'grant_invalid';
  assert.equal(compareAnswers('exchangeToken', a, renamed).differences, [{ field: 'body.detail.reason_code', mock: 'invalid_grant', target: 'grant_invalid' }]);
  const noAction = copy(a);
  delete noAction.body.detail.next_action;
  assert.equal(compareAnswers('exchangeToken', a, noAction).differences, [{ field: 'body.detail.next_action', mock: 'present', target: 'absent' }]);
  const oauth = copy(a);
  oauth.body = { error: 'invalid_grant' };
  assert.equal(compareAnswers('exchangeToken', a, oauth).differences, [{ field: 'body.detail', mock: 'management envelope', target: 'other' }]);
  const other = copy(a);
  other.status = 401;
  assert.equal(compareAnswers('exchangeToken', a, other).differences, [{ field: 'status', mock: 400, target: 401 }]);
});

test.run();
