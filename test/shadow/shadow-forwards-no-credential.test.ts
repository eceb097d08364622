// Shadow mode sends the target no credential of the client: not in a header, not in the query string. The query
// parameters it leaves out are exactly those the journal redacts (by name, or a value that is a credential the mock holds).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { SHADOW_TOKEN, shadowingMock, targetMock } from '../helpers/shadow.js';
import { REDACTED } from '../../src/control/redact.js';

const RUNS = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
/** Parameters named like credentials, in the spellings clients use. */
const SECRET_PARAMS = [
  'access_token',
  'accessToken',
  'token',
  'code',
  'api_key',
  'X-Api-Key',
  'client_secret',
  'password',
  'refresh_token',
  'id_token',
  'code_verifier',
  'signature',
];

test('shadow: query parameters named like credentials never reach the target; the others keep their bytes and order', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  const secrets = SECRET_PARAMS.map((n, i) => `${encodeURIComponent(n)}=s3cr3t-value-${i}`);
  const query = ['limit=2', ...secrets.slice(0, 6), 'q=a%20b+c', ...secrets.slice(6), 'flag', 'empty='].join('&');
  const res = await mock.fetch(`${RUNS}?${query}`, { headers: bearer(DEMO.tokens.owner) });
  assert.is(res.status, 200);
  await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => s.path),
    [`${RUNS}?limit=2&q=a%20b+c&flag&empty=`],
  );
  assert.not.ok(JSON.stringify(target.sent).includes('s3cr3t'), 'a credential reached the target');
  // The journal redacts the same names: one list decides both.
  const entry = mock.control.journalEntry(1);
  for (const n of SECRET_PARAMS) assert.is((entry.query as Record<string, unknown>)[n], REDACTED, n);
  assert.is((entry.query as Record<string, unknown>).limit, '2');
});

test('shadow: a query value that is a credential the mock holds is left out too, whatever its name', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  await mock.fetch(`${RUNS}?trace=${DEMO.tokens.owner}&limit=1`, { headers: bearer(DEMO.tokens.owner) });
  await mock.fetch(`${RUNS}?note=${SHADOW_TOKEN}`, { headers: bearer(DEMO.tokens.owner) });
  await mock.fetch(`${RUNS}?access_token=${DEMO.tokens.owner}`);
  await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => [s.path, s.authorization]),
    [
      [`${RUNS}?limit=1`, `Bearer ${SHADOW_TOKEN}`],
      [RUNS, `Bearer ${SHADOW_TOKEN}`],
      // Credentials in the query only: the target gets neither them nor the shadow token (both answer 401).
      [RUNS, null],
    ],
  );
  assert.equal(mock.control.journalEntry(1).query, { trace: REDACTED, limit: '1' });
});

test('shadow: credential headers never reach the target, only the shadow token in their place', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  const headers = {
    ...bearer(DEMO.tokens.owner),
    'X-Admin-Key': DEMO.adminKey,
    'X-Api-Key': 'k3y-s3cr3t',
    'Proxy-Authorization': 'Basic czNjcjN0',
    Cookie: 'session=s3cr3t',
    'X-Mock-Control-Token': 's3cr3t-control',
    'X-Chatapp-Secret-Token': 's3cr3t-chat',
  };
  await mock.fetch(RUNS, { headers });
  await mock.control.drift({ settled: true });
  assert.equal(target.sent[0].headers, { accept: 'application/json', authorization: `Bearer ${SHADOW_TOKEN}` });
  assert.not.ok(JSON.stringify(target.sent).includes('s3cr3t') || JSON.stringify(target.sent).includes(DEMO.adminKey));
});

test.run();
