// A request body is journaled as the handler read it: sent as JSON (or with no Content-Type, which FastAPI reads as
// JSON), a bare 0, false, null or "x" is that JSON value, so a verify pattern's `body: 0` matches it; sent as text,
// the same bytes are text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const OWNER = bearer(DEMO.tokens.owner);
const CANCEL = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}/cancel`;

test('JSON scalars are journaled as their values; the same bytes sent as text stay text', async () => {
  const { http, mock } = await freshMock();
  const sent: [string, string | undefined][] = [
    ['0', 'application/json'],
    ['false', 'application/json; charset=utf-8'],
    ['"x"', 'application/json'],
    ['-1.5', undefined],
    ['0', 'text/plain'],
    ['true', 'text/plain'],
  ];
  for (const [body, type] of sent) {
    // Bytes rather than a string, so nothing adds a Content-Type of its own.
    const headers: Record<string, string> = type ? { ...OWNER, 'content-type': type } : OWNER;
    await mock.fetch(CANCEL, { method: 'POST', headers, body: new TextEncoder().encode(body) });
  }
  const items = (await http.get('/_mock/requests')).body.items as { request: { body: unknown } }[];
  assert.equal(
    items.map((e) => e.request.body),
    [0, false, 'x', -1.5, '0', 'true'],
  );
  const verified = await http.post('/_mock/verify').send({ request: { operation: 'cancelRun', body: 0 }, count: { exactly: 1 } });
  assert.equal([verified.status, verified.body.ids], [200, [1]], JSON.stringify(verified.body));
  const falsy = await http.post('/_mock/verify').send({ request: { body: false }, count: { exactly: 1 } });
  assert.equal([falsy.status, falsy.body.ids], [200, [2]], JSON.stringify(falsy.body));
});

test('a JSON null body is null, as a request with no body is', async () => {
  const { http } = await freshMock();
  const res = await http.post(CANCEL).set(OWNER).set('Content-Type', 'application/json').send('null');
  assert.is(res.status, 200, res.text);
  const items = (await http.get('/_mock/requests')).body.items as { request: { body: unknown } }[];
  assert.equal(
    items.map((e) => e.request.body),
    [null],
  );
});

test.run();
