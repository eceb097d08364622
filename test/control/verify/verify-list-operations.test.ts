// verify/sequence and verify/only check the operation of every pattern they are given, not only the first: a misspelt id anywhere in the list would match nothing silently, so each one is a 422 item at requests.<i>.operation naming the closest id, all of them in one answer, and nothing is verified.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ValidationError } from '../../../src/validation.js';
import { setup } from '../../helpers/verify-traffic.js';

const misspelt = (i: number, input: string, closest: string) => ({
  type: 'value_error',
  loc: ['body', 'requests', i, 'operation'],
  msg: `Value error, Not an operation id of /openapi.json (did you mean "${closest}"?)`,
  input,
  ctx: { error: {}, did_you_mean: closest },
});

for (const route of ['sequence', 'only'] as const) {
  test(`verify/${route}: a misspelt operation in the second and third patterns is a 422 item each`, async () => {
    const { http } = await setup();
    const res = await http
      .post(`/_mock/verify/${route}`)
      .send({ requests: [{ operation: 'getRun' }, { operation: 'cancelRnu' }, { method: 'GET', operation: 'listUsres' }] });
    assert.is(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.detail, [misspelt(1, 'cancelRnu', 'cancelRun'), misspelt(2, 'listUsres', 'listUsers')]);
    // Spelt right, the same list verifies (the journal holds getRun #1 and #2, cancelRun #3 and listUsers #4).
    const ok = await http
      .post(`/_mock/verify/${route}`)
      .send({ requests: [{ operation: 'getRun' }, { operation: 'cancelRun' }, { method: 'GET', operation: 'listUsers' }] });
    assert.equal(ok.body, route === 'sequence' ? { matched: 3, ids: [1, 3, 4] } : { matched: 4, ids: [1, 2, 3, 4] });
  });
}

test('in process: verifySequence and verifyOnly throw the same items for a misspelt operation past the first pattern', async () => {
  const { mock } = await setup();
  const calls = {
    verifySequence: () => mock.control.verifySequence({ requests: [{ method: 'GET' }, { operation: 'getRnu' }] }),
    verifyOnly: () => mock.control.verifyOnly({ requests: [{ method: 'GET' }, { operation: 'getRnu' }] }),
  };
  for (const [name, call] of Object.entries(calls)) {
    try {
      call();
      assert.unreachable(`${name} threw nothing`);
    } catch (err) {
      assert.instance(err, ValidationError, name);
      const items = (err as ValidationError).items;
      assert.equal(
        items.map((i) => [i.loc, i.input, i.ctx?.did_you_mean]),
        [[['body', 'requests', 1, 'operation'], 'getRnu', 'getRun']],
        name,
      );
    }
  }
});

test.run();
