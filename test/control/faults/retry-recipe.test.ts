// The retry recipe of docs/verification-and-faults.md (examples/retry-recipe.ts) runs and observes what it claims.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { retryRecipe } from '../../../examples/retry-recipe.js';

test('retry recipe: backoff until success, after: 2, Retry-After on the mock clock, giving up on a hang', async () => {
  const r = await retryRecipe();
  assert.is(r.runStatus, 'failed');
  assert.equal(r.backoff, [100, 200]);
  assert.equal(r.afterTwo, [100], 'one retry of the third call');
  assert.equal(r.retryAfter, [30_000], 'Retry-After: 30, waited on the mock clock');
  assert.instance(r.gaveUp, Error);
  assert.is((r.gaveUp as Error).name, 'TimeoutError');
});

test.run();
