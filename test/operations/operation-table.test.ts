// The coverage yardstick control reads (src/control/operation-table.ts) is what the v3 declarations say today: a changed
// declaration fails here until scripts/operation-table.ts is run again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { V3_DECLARATIONS, coverageSpec } from '../../src/operations/index.js';
import { OPERATIONS } from '../../src/control/operations.js';

test('the operation table is derived from the v3 declarations, row for row', () => {
  assert.equal(OPERATIONS, V3_DECLARATIONS.map(coverageSpec), 'run: node --import tsx scripts/operation-table.ts');
  assert.is(OPERATIONS.length, 20);
});

test.run();
