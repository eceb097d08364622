// PKCE (RFC 7636) at endpoint 1: the verifier is 43-128 unreserved characters, hashed as UTF-8; challenges here were computed with openssl.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPkcePair } from '../../src/client-helpers.js';
import { freshMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';

const TOKEN = '/api/v3/auth/token';

// `printf %s "$VERIFIER" | openssl dgst -sha256 -binary | basenc --base64url | tr -d '='`
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'; // RFC 7636 appendix B
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const A43_CHALLENGE = 'ZtNPunH49FD35FWYhT5Tv8I7vRKQJ8uxMaL0_9eHjNA'; // 43 x 'a'
const S_A42_CHALLENGE = 'x2b68SUoFDkeOGh2hGvxhHNSKyJkhOAB3xYonpF1qHs'; // 'š' + 42 x 'a', as UTF-8
const A1_CHALLENGE = 'ypeBEsobvcr6wjGzmiPcTaeG7_gUfE5yuYB3ha_uSLs'; // 'a'

async function exchange(challenge: string, verifier: string) {
  const { mock, http } = await freshMock();
  const minted = await mock.control.mintAuthorizationCode({ principal_id: DEMO.principals.owner, code_challenge: challenge });
  const res = await http.post(TOKEN).send({ grant_type: 'authorization_code', code: minted.code, code_verifier: verifier });
  return { mock, http, res, code: minted.code };
}

const assertInvalidGrant = (res: { status: number; body: any }, what: string) => {
  assert.is(res.status, 400, what);
  assert.is(res.body.detail.reason_code, 'invalid_grant', what);
};

test('pkce: the RFC 7636 appendix B pair exchanges', async () => {
  const { res } = await exchange(RFC_CHALLENGE, RFC_VERIFIER);
  assert.is(res.status, 200);
  assert.is(res.body.token_type, 'Bearer');
  assert.is(createPkcePair(RFC_VERIFIER).code_challenge, RFC_CHALLENGE);
});

test('pkce: the verifier is hashed as UTF-8, so `š` + 42 a is not 43 a (it was, hashed as ascii)', async () => {
  const { res, http, code } = await exchange(A43_CHALLENGE, `š${'a'.repeat(42)}`);
  assertInvalidGrant(res, 'š + 42 a against the challenge of 43 a');
  // The code was not used up by the refusal.
  const ok = await http.post(TOKEN).send({ grant_type: 'authorization_code', code, code_verifier: 'a'.repeat(43) });
  assert.is(ok.status, 200);
  // Even against its own UTF-8 challenge it is refused: `š` is not an unreserved character.
  assertInvalidGrant((await exchange(S_A42_CHALLENGE, `š${'a'.repeat(42)}`)).res, 'š + 42 a against its own challenge');
});

test('pkce: verifiers of 42 or 129 characters, or with other characters, are invalid_grant even when the challenge matches', async () => {
  const { createHash } = await import('node:crypto');
  // Computed here from the bytes, so a matching challenge is not what refuses them.
  const s256 = (v: string) => createHash('sha256').update(Buffer.from(v, 'utf8')).digest('base64url');
  assertInvalidGrant((await exchange(A1_CHALLENGE, 'a')).res, '1 character');
  for (const verifier of [
    'a'.repeat(42),
    'a'.repeat(129),
    `${'a'.repeat(42)} `,
    `${'a'.repeat(42)}+`,
    `${'a'.repeat(42)}/`,
    `${'a'.repeat(42)}=`,
    `${'a'.repeat(42)}%`,
  ]) {
    assertInvalidGrant((await exchange(s256(verifier), verifier)).res, JSON.stringify(verifier));
  }
  for (const verifier of ['a'.repeat(43), 'a'.repeat(128), `${'A1'.repeat(20)}-._~`]) {
    const { res } = await exchange(s256(verifier), verifier);
    assert.is(res.status, 200, `${verifier.length}: ${verifier}`);
  }
});

test('pkce: plain PKCE (the verifier equal to the challenge) is refused', async () => {
  const { res } = await exchange(RFC_CHALLENGE, RFC_CHALLENGE);
  assertInvalidGrant(res, 'plain');
  assert.match(res.body.detail.message, 'PKCE');
});

test('pkce: createPkcePair refuses a verifier the endpoint would refuse', () => {
  for (const bad of ['short', 'a'.repeat(129), `š${'a'.repeat(42)}`]) {
    assert.throws(() => createPkcePair(bad), /43 to 128/);
  }
  const pair = createPkcePair();
  assert.match(pair.code_verifier, /^[A-Za-z0-9_-]{43}$/);
});

test.run();
