// verify's count forms at their edges: zero, one, exact, bounds equal to the matches and one off, with no match and
// with one. A pass answers {matched, ids}; a miss is 417 with the count asked for and the count found.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const PATTERN = { method: 'GET', path: RUN };

/** A mock whose journal holds `n` matching requests (ids 1..n) and one that does not match (id n+1). */
async function withMatches(n: number) {
  const m = await freshMock();
  for (let i = 0; i < n; i++) await m.http.get(RUN).set(bearer(DEMO.tokens.owner)).expect(200);
  await m.http.get(`/api/v3/projects/${DEMO.projects.support}/jobs`).set(bearer(DEMO.tokens.owner)).expect(200);
  return m;
}
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

const CASES: [count: Record<string, number> | undefined, matches: number, holds: boolean][] = [
  [{ exactly: 0 }, 0, true],
  [{ exactly: 0 }, 1, false],
  [{ at_most: 0 }, 0, true],
  [{ at_most: 0 }, 1, false],
  [{ at_least: 0 }, 0, true],
  [{ at_least: 0 }, 2, true],
  [undefined, 0, false],
  [undefined, 1, true],
  [{ exactly: 1 }, 1, true],
  [{ exactly: 1 }, 0, false],
  [{ exactly: 1 }, 2, false],
  [{ at_least: 1 }, 0, false],
  [{ at_least: 1 }, 1, true],
  [{ at_least: 2 }, 1, false],
  [{ at_least: 2 }, 2, true],
  [{ at_most: 1 }, 1, true],
  [{ at_most: 1 }, 2, false],
  [{ at_least: 1, at_most: 1 }, 1, true],
  [{ at_least: 1, at_most: 1 }, 2, false],
  [{ at_least: 2, at_most: 3 }, 1, false],
];

for (const [count, matches, holds] of CASES) {
  test(`verify ${JSON.stringify(count ?? 'no count')} with ${matches} matching: ${holds ? '200' : '417'}`, async () => {
    const m = await withMatches(matches);
    const res = await m.http.post('/_mock/verify').send(count ? { request: PATTERN, count } : { request: PATTERN });
    if (holds) {
      assert.is(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body, { matched: matches, ids: ids(matches) });
      return;
    }
    assert.is(res.status, 417);
    assert.equal([res.body.detail.reason_code, res.body.matched, res.body.expected], ['verification_failed', matches, count ?? { at_least: 1 }]);
  });
}

test('verify: bounds that cross, exactly with a bound, and an empty count are 422 at body.count', async () => {
  const m = await withMatches(0);
  for (const [count, msg] of [
    [{ at_least: 2, at_most: 1 }, 'at_least must not be greater than at_most'],
    [{ exactly: 0, at_most: 0 }, 'exactly excludes at_least and at_most'],
    [{ exactly: 0, at_least: 0 }, 'exactly excludes at_least and at_most'],
    [{}, 'Give exactly, at_least or at_most'],
  ] as const) {
    const res = await m.http.post('/_mock/verify').send({ request: PATTERN, count });
    assert.is(res.status, 422, JSON.stringify(count));
    assert.equal([res.body.detail[0].loc, res.body.detail[0].msg], [['body', 'count'], `Value error, ${msg}`]);
  }
  // Equal bounds are allowed.
  assert.is((await m.http.post('/_mock/verify').send({ request: PATTERN, count: { at_least: 0, at_most: 0 } })).status, 200);
});

test.run();
