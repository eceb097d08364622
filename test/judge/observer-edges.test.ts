// What the client observer notes of a request at its edges: the Bearer scheme in any case, unknown tokens counted apart, and slips only on an operation of the v3 API.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const demo = () => createApp({ storage: 'memory', fixtures: demoFixture() });
const concurrency = (mock: MockApp) => mock.control.clientReport().findings.filter((f) => f.rule === 'unbounded_concurrency');

/** `n` GETs of the run held together in the fault layer, the i-th with the Authorization header `auth(i)`. */
async function together(mock: MockApp, n: number, auth: (i: number) => string) {
  mock.control.addFault({ method: 'GET', path: RUN, delay_ms: 30 });
  await Promise.all(Array.from({ length: n }, (_, i) => mock.fetch(RUN, { headers: { authorization: auth(i) } })));
}

test('the scheme "bearer" in lower case is a bearer token: its principal is known and counted', async () => {
  const mock = await demo();
  await together(mock, 33, () => `bearer ${DEMO.tokens.owner}`);
  const [f, ...more] = concurrency(mock);
  assert.equal(more, []);
  assert.equal([f.principal, f.message], [DEMO.principals.owner, '33 requests were in flight at once (more than 32), from request 33.']);
});

test('tokens the mock does not know are counted each on its own, not together', async () => {
  const apart = await demo();
  await together(apart, 33, (i) => `Bearer unknown-token-${i}`);
  assert.equal(concurrency(apart), []);
  // The same unknown token 33 times is one client fanning out.
  const same = await demo();
  await together(same, 33, () => 'Bearer unknown-token');
  assert.equal(
    concurrency(same).map((f) => f.principal),
    ['unknown token'],
  );
});

test('a JSON body sent as text is a slip only on an operation of the v3 API, not on a path none answers', async () => {
  const mock = await demo();
  const send = (path: string) =>
    mock.fetch(path, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${DEMO.tokens.owner}` }, body: '{"reason":"x"}' });
  await send('/api/v3/no-such-route');
  assert.is(mock.control.requests().at(-1)!.findings, undefined);
  await send(`${RUN}/cancel`);
  assert.equal(
    mock.control
      .requests()
      .at(-1)!
      .findings?.map((f) => f.rule),
    ['content_type_not_json'],
  );
});

test.run();
