// A sandbox's end is one instant on PostgreSQL, over three instances on one schema: a delete through one orders against
// requests through every one (never a 503, no 200 written after the delete's, no change set stored after it), a write
// held by a delay fault or a slow body answers 404, and a request in flight on one instance keeps the sandbox alive for all.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';
import { DATABASE_URL, dropCreated, freshSchema, needsPostgres } from '../../helpers/postgres.js';
import { rows } from '../../helpers/postgres-sandboxes.js';
import { delayedWrite, inFlightPastTtl, raceDelete, serve, slowBodyWrite, type Served } from '../../helpers/sandbox-end.js';

needsPostgres();
const trio: Served[] = [];
let schema = '';
test.before(async () => {
  schema = freshSchema();
  for (let i = 0; i < 3; i++)
    trio.push(await serve(await createApp({ storage: postgresStorage({ connectionString: DATABASE_URL, schema }), fixtures: demoFixture() })));
});
test.after(async () => {
  for (const s of trio.splice(0)) await s.close().catch(() => {});
  await dropCreated();
});

test('a delete among 60 concurrent writes and reads over 3 instances (5 rounds): no 503, 200 only before the delete, nothing stored after', async () => {
  for (let round = 0; round < 5; round++) {
    const { id } = await raceDelete(trio, round);
    assert.is(await rows(schema, 'prm_sandboxes', 'id = $1', [id]), 0);
    assert.is(await rows(schema, 'prm_sandbox_changes', 'sandbox = $1', [id]), 0, 'no change set of the sandbox is stored after its delete');
  }
});

test('a write held by a delay fault answers 404 when the sandbox is deleted, through the same instance or another', async () => {
  await delayedWrite(trio[0], trio[0]);
  const id = await delayedWrite(trio[1], trio[2]);
  assert.is(await rows(schema, 'prm_sandbox_changes', 'sandbox = $1', [id]), 0);
});

test('a write whose body is still arriving answers 404 when the sandbox is deleted, through the same instance or another', async () => {
  await slowBodyWrite(trio[2], trio[2]);
  await slowBodyWrite(trio[0], trio[1]);
});

test('a write in flight on one instance keeps the sandbox alive past its time to live on every instance until it is answered', async () => {
  await inFlightPastTtl(trio[0], trio[0]);
  await inFlightPastTtl(trio[1], trio[2]);
});

test.run();
