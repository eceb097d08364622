// Endpoint 1: PKCE code exchange, refresh rotation, family revocation, expiry by the mock clock, and what the tokens unlock.
import { test } from 'uvu';
import { createHash } from 'node:crypto';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { createPkcePair } from '../../src/client-helpers.js';
import { mintAuthorizationCode } from '../../src/domain/tokens.js';

// The documented lifetimes (docs/auth-and-webhooks.md), written out rather than imported from the code under test.
const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000; // one hour
const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000; // ten minutes
const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000; // thirty days

const TOKEN = '/api/v3/auth/token';
const PROJECT = `/api/v3/projects/${DEMO.projects.support}/connections/support-chat`;
const demoExchange = { grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier };

type Http = Awaited<ReturnType<typeof freshMock>>['http'];
const exchangeDemo = async (http: Http) => {
  const res = await http.post(TOKEN).send(demoExchange);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body as { access_token: string; refresh_token: string; expires_at: string; scopes: string[]; token_type: string };
};
const refresh = (http: Http, refresh_token: string) => http.post(TOKEN).send({ grant_type: 'refresh_token', refresh_token });
const assertInvalidGrant = (res: { status: number; body: { detail: { reason_code: string } } }) => {
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.detail.reason_code, 'invalid_grant');
};

test('token: the demo code with its PKCE verifier issues a Bearer pair with the code scopes and a one-hour expiry', async () => {
  const { http } = await freshMock();
  const res = await http.post(TOKEN).send(demoExchange);
  assert.is(res.status, 200);
  assert.is(res.headers['cache-control'], 'no-store');
  assert.is(res.body.token_type, 'Bearer');
  assert.equal(res.body.scopes, ['project:admin']);
  assert.type(res.body.access_token, 'string');
  assert.type(res.body.refresh_token, 'string');
  assert.is.not(res.body.access_token, res.body.refresh_token);
  assert.is(res.body.expires_at, new Date(Date.parse(DEMO.now) + ACCESS_TOKEN_TTL_MS).toISOString());
});

test('token: an issued access token works at once on management endpoints with the code principal', async () => {
  const { http } = await freshMock();
  const tokens = await exchangeDemo(http);
  const res = await http.get(PROJECT).set(bearer(tokens.access_token));
  assert.is(res.status, 200);
  assert.is(res.body.connection_name, 'support-chat');
});

test('token: the code scopes narrow the issued token (project:read cannot cancel a run)', async () => {
  const { mock, http } = await freshMock();
  const pkce = createPkcePair();
  const minted = await mintAuthorizationCode(mock.deps, { principal_id: DEMO.principals.owner, code_challenge: pkce.code_challenge, scopes: ['project:read'] });
  const res = await http.post(TOKEN).send({ grant_type: 'authorization_code', code: minted.code, code_verifier: pkce.code_verifier });
  assert.is(res.status, 200);
  assert.equal(res.body.scopes, ['project:read']);
  const read = await http.get(PROJECT).set(bearer(res.body.access_token));
  assert.is(read.status, 200);
  const cancel = await http
    .post(`/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}/cancel`)
    .set(bearer(res.body.access_token))
    .send({});
  assert.is(cancel.status, 403);
  assert.is(cancel.body.detail.reason_code, 'insufficient_authority');
});

test('token: a wrong code_verifier is 400 invalid_grant and leaves the code usable', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http.post(TOKEN).send({ ...demoExchange, code_verifier: 'not-the-verifier-0123456789-abcdefghijklmnopqrstuvwxyz' });
  assertInvalidGrant(res);
  assert.ok(res.body.detail.message.includes('PKCE'));
  assert.is(stateOf(mock), before);
  await exchangeDemo(http);
});

test('token: an unknown code is 400 invalid_grant, state unchanged', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertInvalidGrant(await http.post(TOKEN).send({ ...demoExchange, code: 'no-such-code' }));
  assert.is(stateOf(mock), before);
});

test('token: a code is single-use; reusing it is invalid_grant and revokes the tokens it issued', async () => {
  const { http } = await freshMock();
  const first = await exchangeDemo(http);
  assertInvalidGrant(await http.post(TOKEN).send(demoExchange));
  const res = await http.get(PROJECT).set(bearer(first.access_token));
  assert.is(res.status, 401);
  assert.is(res.body.detail.reason_code, 'token_invalid');
  assertInvalidGrant(await refresh(http, first.refresh_token));
});

test('token: a code expires by the mock clock (minted for 10 minutes by default)', async () => {
  const { mock, http } = await freshMock();
  const pkce = createPkcePair();
  const minted = await mintAuthorizationCode(mock.deps, { principal_id: DEMO.principals.operator, code_challenge: pkce.code_challenge });
  assert.is(minted.expires_at, new Date(Date.parse(DEMO.now) + AUTHORIZATION_CODE_TTL_MS).toISOString());
  assert.equal(minted.scopes, ['project:admin']);
  await mock.control.advanceClock(AUTHORIZATION_CODE_TTL_MS);
  const before = stateOf(mock);
  assertInvalidGrant(await http.post(TOKEN).send({ grant_type: 'authorization_code', code: minted.code, code_verifier: pkce.code_verifier }));
  assert.is(stateOf(mock), before);
});

test('token: a code is still good one millisecond before it expires', async () => {
  const { mock, http } = await freshMock();
  const pkce = createPkcePair('my-own-verifier-0123456789-abcdefghijklmnopqrstuvwxyz');
  const minted = await mintAuthorizationCode(mock.deps, {
    principal_id: DEMO.principals.operator,
    code_challenge: pkce.code_challenge,
    expires_in_ms: 5000,
    code: 'chosen-code',
  });
  assert.is(minted.code, 'chosen-code');
  await mock.control.advanceClock(4999);
  const res = await http.post(TOKEN).send({ grant_type: 'authorization_code', code: 'chosen-code', code_verifier: pkce.code_verifier });
  assert.is(res.status, 200);
  assert.equal(res.body.scopes, ['project:admin']);
  assert.is(res.body.expires_at, new Date(Date.parse(DEMO.now) + 4999 + ACCESS_TOKEN_TTL_MS).toISOString());
  // The tokens belong to the code's principal (the operator: reads Acme Support, cannot archive it).
  const archive = await http.delete(`/api/v3/projects/${DEMO.projects.support}`).set(bearer(res.body.access_token)).send({ confirmation: 'support-desk' });
  assert.is(archive.status, 403);
  assert.is(archive.body.detail.reason_code, 'insufficient_authority');
});

test('token: minting a code for an unknown principal is principal_not_found and stores nothing', async () => {
  const { mock } = await freshMock();
  const before = stateOf(mock);
  try {
    await mintAuthorizationCode(mock.deps, { principal_id: '00000000-0000-4000-8000-000000000000', code_challenge: 'x' });
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.is((err as { reason_code?: string }).reason_code, 'principal_not_found');
  }
  assert.is(stateOf(mock), before);
});

test('token: an access token expires by the mock clock (401 token_expired); refresh then issues a working one', async () => {
  const { mock, http } = await freshMock();
  const tokens = await exchangeDemo(http);
  await mock.control.advanceClock(ACCESS_TOKEN_TTL_MS);
  const expired = await http.get(PROJECT).set(bearer(tokens.access_token));
  assert.is(expired.status, 401);
  assert.is(expired.body.detail.reason_code, 'token_expired');
  assert.is(expired.body.detail.next_action, 'refresh_token');
  assert.is(expired.headers['www-authenticate'], 'Bearer');
  const next = await refresh(http, tokens.refresh_token);
  assert.is(next.status, 200);
  assert.is((await http.get(PROJECT).set(bearer(next.body.access_token))).status, 200);
});

test('token: refresh rotates: a new pair with the same scopes, and the old refresh token is dead', async () => {
  const { http } = await freshMock();
  const first = await exchangeDemo(http);
  const second = await refresh(http, first.refresh_token);
  assert.is(second.status, 200);
  assert.equal(second.body.scopes, ['project:admin']);
  assert.is(second.body.token_type, 'Bearer');
  assert.is.not(second.body.refresh_token, first.refresh_token);
  assert.is.not(second.body.access_token, first.access_token);
  const third = await refresh(http, second.body.refresh_token);
  assert.is(third.status, 200);
});

test('token: reused refresh token revokes the family; newest access token 401 token_invalid', async () => {
  const { http } = await freshMock();
  const first = await exchangeDemo(http);
  const second = (await refresh(http, first.refresh_token)).body;
  const third = (await refresh(http, second.refresh_token)).body;
  assert.is((await http.get(PROJECT).set(bearer(third.access_token))).status, 200);

  assertInvalidGrant(await refresh(http, first.refresh_token));

  for (const access of [first.access_token, second.access_token, third.access_token]) {
    const res = await http.get(PROJECT).set(bearer(access));
    assert.is(res.status, 401);
    assert.is(res.body.detail.reason_code, 'token_invalid');
    assert.is(res.headers['www-authenticate'], 'Bearer');
  }
  // The newest refresh token died with its family.
  assertInvalidGrant(await refresh(http, third.refresh_token));
});

test('token: family revocation touches only that family', async () => {
  const { mock, http } = await freshMock();
  const a = await exchangeDemo(http);
  const pkce = createPkcePair();
  const minted = await mintAuthorizationCode(mock.deps, { principal_id: DEMO.principals.owner, code_challenge: pkce.code_challenge });
  const b = (await http.post(TOKEN).send({ grant_type: 'authorization_code', code: minted.code, code_verifier: pkce.code_verifier })).body;
  await refresh(http, a.refresh_token);
  assertInvalidGrant(await refresh(http, a.refresh_token));
  assert.is((await http.get(PROJECT).set(bearer(b.access_token))).status, 200);
  assert.is((await http.get(PROJECT).set(bearer(DEMO.tokens.owner))).status, 200);
  assert.is((await refresh(http, b.refresh_token)).status, 200);
});

test('token: a refresh token expires by the mock clock after 30 days', async () => {
  const { mock, http } = await freshMock();
  const tokens = await exchangeDemo(http);
  await mock.control.advanceClock(REFRESH_TOKEN_TTL_MS);
  const before = stateOf(mock);
  assertInvalidGrant(await refresh(http, tokens.refresh_token));
  assert.is(stateOf(mock), before);
});

test('token: an unknown refresh token is invalid_grant, state unchanged', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertInvalidGrant(await refresh(http, 'never-issued'));
  assert.is(stateOf(mock), before);
});

test('token: missing fields of the chosen grant are 422 missing at their body loc', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const a = await http.post(TOKEN).send({ grant_type: 'authorization_code', code: DEMO.authorizationCode });
  assert.is(a.status, 422);
  assert.equal(
    a.body.detail.map((i: { loc: unknown[]; type: string }) => [i.loc, i.type]),
    [[['body', 'code_verifier'], 'missing']],
  );
  const b = await http.post(TOKEN).send({ grant_type: 'authorization_code' });
  assert.equal(
    b.body.detail.map((i: { loc: unknown[] }) => i.loc),
    [
      ['body', 'code'],
      ['body', 'code_verifier'],
    ],
  );
  const c = await http.post(TOKEN).send({ grant_type: 'refresh_token', code: 'x' });
  assert.is(c.status, 422);
  assert.equal(c.body.detail[0].loc, ['body', 'refresh_token']);
  assert.is(c.body.detail[0].type, 'missing');
  assert.is(stateOf(mock), before);
});

test('token: a bad grant_type, a missing body and malformed JSON are 422', async () => {
  const { http } = await freshMock();
  const bad = await http.post(TOKEN).send({ grant_type: 'password', code: 'x' });
  assert.is(bad.status, 422);
  assert.equal(bad.body.detail[0].loc, ['body', 'grant_type']);
  const none = await http.post(TOKEN);
  assert.is(none.status, 422);
  assert.equal(none.body.detail[0].loc, ['body']);
  const broken = await http.post(TOKEN).set('Content-Type', 'application/json').send('{"grant_type":');
  assert.is(broken.status, 422);
  assert.is(broken.body.detail[0].type, 'json_invalid');
});

test('token: the endpoint needs no credentials and ignores bad ones', async () => {
  const { http } = await freshMock();
  const res = await http.post(TOKEN).set(bearer('garbage')).send(demoExchange);
  assert.is(res.status, 200);
  assert.is(res.body.token_type, 'Bearer');
  assert.equal(res.body.scopes, ['project:admin']);
});

test('token: plain PKCE is refused: a verifier equal to the challenge is invalid_grant (only S256)', async () => {
  const { mock, http } = await freshMock();
  const challenge = 'plain-challenge-0123456789-abcdefghijklmnopqrstuv'; // 48 characters, a valid verifier too
  await http.post('/_mock/auth/codes').send({ principal_id: DEMO.principals.owner, code_challenge: challenge, code: 'plain-code' });
  const before = stateOf(mock);
  assertInvalidGrant(await http.post(TOKEN).send({ grant_type: 'authorization_code', code: 'plain-code', code_verifier: challenge }));
  assert.is(stateOf(mock), before);
  // The S256 challenge of the demo verifier, computed here: base64url(SHA-256(verifier)) without padding.
  const s256 = createHash('sha256').update(DEMO.pkceVerifier).digest('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  await http.post('/_mock/auth/codes').send({ principal_id: DEMO.principals.owner, code_challenge: s256, code: 's256-code' });
  assertInvalidGrant(await http.post(TOKEN).send({ grant_type: 'authorization_code', code: 's256-code', code_verifier: s256 }));
  const good = await http.post(TOKEN).send({ grant_type: 'authorization_code', code: 's256-code', code_verifier: DEMO.pkceVerifier });
  assert.is(good.status, 200, JSON.stringify(good.body));
});

test.run();
