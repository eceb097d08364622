// No credential the mock issues or holds reaches the journal or the inspector, however it is sent: every type of body, every echo.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { createPkcePair, signBrokerPayload } from '../../src/client-helpers.js';
import { Redactor } from '../../src/control/redact.js';
import { redactSecretPairs } from '../../src/control/redact-text.js';
import { DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const CONTROL_TOKEN = 'ctl-9Qx7-control-token-value';

interface Setup {
  mock: MockApp;
  http: ReturnType<typeof request>;
  /** Every credential, by what it is. */
  secrets: Record<string, string>;
}

/** A mock with a control token, a fresh token pair, a second unused code with its verifier, and a broker signature. */
async function setup(): Promise<Setup> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), controlToken: CONTROL_TOKEN });
  const http = request(mock.callback());
  const pair = await http.post('/api/v3/auth/token').send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  assert.is(pair.status, 200, JSON.stringify(pair.body));
  const pkce = createPkcePair('unused-verifier-0123456789-ABCDEFGHIJKLMNOPQRSTUVWXYZ');
  const minted = await mock.control.mintAuthorizationCode({ principal_id: DEMO.principals.owner, code_challenge: pkce.code_challenge });
  const signed = signBrokerPayload({ event_id: 'evt-secret-sweep', event_type: 'connection.refreshed' }, DEMO.brokerSecret);
  mock.control.clearRequests();
  return {
    mock,
    http,
    secrets: {
      accessToken: pair.body.access_token,
      refreshToken: pair.body.refresh_token,
      bearer: DEMO.tokens.owner,
      usedCode: DEMO.authorizationCode,
      usedVerifier: DEMO.pkceVerifier,
      code: minted.code,
      verifier: pkce.code_verifier,
      adminKey: DEMO.adminKey,
      brokerSecret: DEMO.brokerSecret,
      brokerSignature: signed.signature,
      chatSecret: DEMO.chatSecret,
      controlToken: CONTROL_TOKEN,
    },
  };
}

/** Everything the journal shows, three ways: the API, one entry at a time, and the inspector's HTTP route. */
async function everythingShown(s: Setup): Promise<string> {
  const list = s.mock.control.requests();
  const one = list.map((e) => s.mock.control.journalEntry(e.id));
  const res = await s.http.get('/_mock/requests').set('X-Mock-Control-Token', CONTROL_TOKEN);
  assert.is(res.status, 200);
  const each = await Promise.all(list.map((e) => s.http.get(`/_mock/requests/${e.id}`).set('X-Mock-Control-Token', CONTROL_TOKEN)));
  return JSON.stringify([list, one, res.body, each.map((r) => r.body)]);
}

function assertNoSecret(shown: string, secrets: Record<string, string>) {
  for (const [what, value] of Object.entries(secrets)) assert.not.ok(shown.includes(value), `the journal shows the ${what} (${value})`);
}

const FORM = 'application/x-www-form-urlencoded';

test('journal secrets: a form-encoded token request (as OAuth clients send it) keeps no token, in the request or the 422 echo', async () => {
  const s = await setup();
  const rt = s.secrets.refreshToken;
  const sent = `grant_type=refresh_token&refresh_token=${rt}`;
  const res = await s.http.post('/api/v3/auth/token').set('Content-Type', FORM).send(sent);
  // The client's answer keeps pydantic's input, as FastAPI does.
  assert.is(res.status, 422);
  assert.equal(res.body.detail, [
    { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: sent },
  ]);
  const [e] = s.mock.control.requests();
  assert.is(e.request.body, 'grant_type=refresh_token&refresh_token=[redacted]');
  assert.equal((e.response.body as { detail: unknown[] }).detail, [
    {
      type: 'model_attributes_type',
      loc: ['body'],
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: 'grant_type=refresh_token&refresh_token=[redacted]',
    },
  ]);
  const code = `grant_type=authorization_code&code=${s.secrets.code}&code_verifier=${s.secrets.verifier}`;
  await s.http.post('/api/v3/auth/token').set('Content-Type', `${FORM}; charset=utf-8`).send(code);
  assert.is(s.mock.control.requests()[1].request.body, 'grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]');
  assertNoSecret(await everythingShown(s), s.secrets);
});

test('journal secrets: a wrongly typed refresh_token, code or code_verifier is kept out of the 422 input in the journal (the answer keeps it)', async () => {
  const s = await setup();
  const cases: [Record<string, unknown>, (string | number)[]][] = [
    [{ grant_type: 'refresh_token', refresh_token: [s.secrets.refreshToken] }, ['body', 'refresh_token']],
    [{ grant_type: 'refresh_token', refresh_token: { value: s.secrets.refreshToken } }, ['body', 'refresh_token']],
    [{ grant_type: 'authorization_code', code: [s.secrets.code], code_verifier: s.secrets.verifier }, ['body', 'code']],
    [{ grant_type: 'authorization_code', code: s.secrets.code, code_verifier: { v: s.secrets.verifier } }, ['body', 'code_verifier']],
  ];
  for (const [body, loc] of cases) {
    const res = await s.http.post('/api/v3/auth/token').send(body);
    assert.is(res.status, 422, JSON.stringify(res.body));
    const item = res.body.detail.find((d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(loc));
    assert.equal(item.input, body[loc[1] as string], 'the client sees what it sent');
    const shown = s.mock.control.requests().at(-1)!;
    const journaled = (shown.response.body as { detail: { loc: unknown[]; input: unknown }[] }).detail.find(
      (d) => JSON.stringify(d.loc) === JSON.stringify(loc),
    )!;
    assert.is(journaled.input, '[redacted]');
    assert.is((shown.request.body as Record<string, unknown>)[loc[1] as string], '[redacted]');
    assert.is((shown.request.body as Record<string, unknown>).grant_type, body.grant_type, 'what is not secret stays');
  }
  assertNoSecret(await everythingShown(s), s.secrets);
});

test('journal secrets: every credential, sent every wrong way, is never shown', async () => {
  const s = await setup();
  const tokenPath = '/api/v3/auth/token';
  // A broker signature is a credential only with its body: it is tested below, named or sent with that body.
  const { brokerSignature, ...credentials } = s.secrets;
  for (const [what, value] of Object.entries(credentials)) {
    const names = [
      'refresh_token',
      'refreshToken',
      'code',
      'code_verifier',
      'access_token',
      'token',
      'client_secret',
      'admin_key',
      'broker_secret',
      'webhook_secret',
    ];
    const name = names[value.length % names.length];
    const sends: (() => request.Test)[] = [
      // Bodies of every type.
      () =>
        s.http
          .post(tokenPath)
          .set('Content-Type', FORM)
          .send(`grant_type=refresh_token&${name}=${encodeURIComponent(value)}`),
      () =>
        s.http
          .post(tokenPath)
          .set('Content-Type', 'text/plain')
          .send(JSON.stringify({ grant_type: 'refresh_token', [name]: value })),
      () => s.http.post(tokenPath).set('Content-Type', 'text/plain').send(value),
      () => s.http.post(tokenPath).set('Content-Type', 'application/json').send(`{"grant_type":"refresh_token","${name}":"${value}",}`),
      () => s.http.post(tokenPath).set('Content-Type', 'application/json').send(`{"grant_type":"refresh_token","${name}":["${value}"`),
      () => s.http.post(tokenPath).set('Content-Type', 'application/json').send(`"${value}"`),
      () => s.http.post(tokenPath).set('Content-Type', 'application/yaml').send(`grant_type: refresh_token\n${name}: ${value}\n`),
      () => s.http.post(tokenPath).field('grant_type', 'refresh_token').field(name, value),
      () => s.http.post(tokenPath).send({ grantType: 'refresh_token', [name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())]: value }),
      () => s.http.post(tokenPath).send({ grant_type: 'refresh_token', refresh_token: 42, note: value }),
      () =>
        s.http
          .post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`)
          .set('Authorization', `Bearer ${DEMO.tokens.owner}`)
          .send({ reason: value }),
      // The query, the path, headers.
      () =>
        s.http.get(`/api/v3/projects/${P}/runs?${name}=${encodeURIComponent(value)}&q=${encodeURIComponent(value)}`).set('Authorization', `Bearer ${value}`),
      () => s.http.get(`/api/v3/projects/${encodeURIComponent(value)}/runs`).set('Authorization', `Bearer ${DEMO.tokens.owner}`),
      () => s.http.get(`/api/v3/projects/${P}/runs/${encodeURIComponent(value)}`).set('Authorization', `Token ${value}`),
      () =>
        s.http.get(`/api/v3/projects/${P}/jobs`).set({
          'X-Access-Token': value,
          'X-Refresh-Token': value,
          'X-Mock-Control-Token': value,
          Cookie: `session=${value}`,
          'X-Custom': value,
          Referer: `http://app.example/cb?code=${value}`,
        }),
      () =>
        s.http
          .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
          .set('X-Chatapp-Secret-Token', value)
          .send({ update_id: 1, message: { from: { id: 1 }, text: value } }),
      () =>
        s.http
          .post('/api/v3/webhooks/broker')
          .set('Content-Type', 'application/json')
          .set('X-Signature', value)
          .send(`{"event_id":"e-${what}","token":"${value}"}`),
    ];
    for (const send of sends) await send();
  }
  // A broker webhook whose signature header is right: the signature is a credential for that body.
  const signed = signBrokerPayload({ event_id: 'evt-secret-sweep', event_type: 'connection.refreshed' }, DEMO.brokerSecret);
  assert.is(signed.signature, brokerSignature);
  await s.http.post('/api/v3/webhooks/broker').set(signed.headers).set('X-Copy', signed.signature).send(signed.body);
  await s.http.post(`/api/v3/webhooks/broker?q=${signed.signature}`).set('Content-Type', 'application/json').send(signed.body);
  await s.http
    .post(`/api/v3/webhooks/broker?signature=${signed.signature}`)
    .set('X-Signature', signed.signature)
    .set('Content-Type', 'application/json')
    .send('{}');
  const shown = await everythingShown(s);
  assert.is(s.mock.control.requests().length, Object.keys(credentials).length * 17 + 3, 'every send was journaled');
  assertNoSecret(shown, s.secrets);
  // What is not secret is still shown.
  assert.ok(shown.includes('grant_type=refresh_token'), 'form fields that are not secret stay');
  assert.ok(shown.includes('"grant_type":"refresh_token"'), 'JSON fields that are not secret stay');
  assert.ok(shown.includes('evt-secret-sweep'), 'the broker event id stays');
});

test('journal secrets: a large form body is cut and still redacted; the redactor is bounded and keeps what is not secret', async () => {
  const s = await setup();
  const body = `refresh_token=${s.secrets.refreshToken}&pad=${'x'.repeat(40_000)}`;
  await s.http.post('/api/v3/auth/token').set('Content-Type', FORM).send(body);
  const [e] = s.mock.control.requests();
  assert.ok((e.request.body as string).startsWith('refresh_token=[redacted]&pad=xxx'), String(e.request.body).slice(0, 80));
  assert.equal(e.request.truncated, { bytes: body.length });
  assertNoSecret(await everythingShown(s), s.secrets);
});

test('redaction of text: pairs in forms, JSON, YAML and multipart; values after an auth scheme; the values found are reported', () => {
  const found: string[] = [];
  const out = redactSecretPairs(
    'a=1&refresh%5Ftoken=abc123&Code=x9&reason_code=keep&"code_verifier" : "v e r",\nclient-secret: s3\nAuthorization: Bearer tok.en',
    (v) => found.push(v),
  );
  assert.is(
    out,
    'a=1&refresh%5Ftoken=[redacted]&Code=[redacted]&reason_code=keep&"code_verifier" : "[redacted]",\nclient-secret: [redacted]\nAuthorization: Bearer [redacted]',
  );
  assert.equal(found, ['abc123', 'x9', 'v e r', 's3', 'tok.en']);
  assert.is(redactSecretPairs('{"refresh_token": ["a", {"b": "c"}], "keep": 1}'), '{"refresh_token": [redacted], "keep": 1}');
  assert.is(redactSecretPairs('{"refresh_token": ["a", "b'), '{"refresh_token": [redacted]');
  assert.is(
    redactSecretPairs('--b\r\nContent-Disposition: form-data; name="code"\r\n\r\nsecret-code\r\n--b--'),
    '--b\r\nContent-Disposition: form-data; name="code"\r\n\r\n[redacted]\r\n--b--',
  );
  assert.is(redactSecretPairs('max_tokens=5&token_type=Bearer&input_tokens: 3'), 'max_tokens=5&token_type=Bearer&input_tokens: 3');
});

test('redaction: a validation item hides its input when its loc names a secret; a found value is hidden wherever it is echoed', () => {
  const r = new Redactor();
  r.collect({ refresh_token: 'value-seen-under-a-secret-name' });
  const out = r.deep({
    detail: [
      { type: 'string_type', loc: ['body', 'refresh_token'], msg: 'Input should be a valid string', input: ['x'] },
      { type: 'missing', loc: ['body', 'code'], msg: 'Field required', input: { grant_type: 'authorization_code', codeVerifier: 'v' } },
      { type: 'string_type', loc: ['query', 'limit'], msg: 'echo value-seen-under-a-secret-name', input: 'value-seen-under-a-secret-name' },
      { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer', input: 'abc' },
    ],
  });
  assert.equal(out, {
    detail: [
      { type: 'string_type', loc: ['body', 'refresh_token'], msg: 'Input should be a valid string', input: '[redacted]' },
      { type: 'missing', loc: ['body', 'code'], msg: 'Field required', input: '[redacted]' },
      { type: 'string_type', loc: ['query', 'limit'], msg: 'echo [redacted]', input: '[redacted]' },
      { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer', input: 'abc' },
    ],
  });
  // Header names in any spelling.
  assert.equal(
    new Redactor().headers({ 'X-Mock-Control-Token': 'a', 'x-refresh-token': 'b', 'proxy-authorization': 'c', 'x-hub-signature-256': 'd', accept: 'e' }),
    {
      'X-Mock-Control-Token': '[redacted]',
      'x-refresh-token': '[redacted]',
      'proxy-authorization': '[redacted]',
      'x-hub-signature-256': '[redacted]',
      accept: 'e',
    },
  );
});

test.run();
