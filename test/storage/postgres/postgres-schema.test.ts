// PostgreSQL storage in process: the adapter contract, the versioned schema (a foreign or newer one refused by table
// name) and seeding only an empty database.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { createApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { DatabaseSchemaError } from '../../../src/storage/postgres/index.js';
import { adapterContract } from '../../helpers/adapter-contract.js';
import { admin, freshSchema, needsPostgres } from '../../helpers/postgres.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import { postgresApps } from '../../helpers/postgres-apps.js';

needsPostgres();
const P = DEMO.projects.support;
const operator = bearer(DEMO.tokens.operator);
const { storage, app } = postgresApps(test);

adapterContract('postgres', () => storage(freshSchema()));

test('schema: created on first use, with its format and version; a second start reads it', async () => {
  const schema = freshSchema();
  const mock = await app(schema);
  const [meta] = await admin(`SELECT format, schema_version FROM ${schema}.prm_meta`);
  assert.equal(meta, { format: 'project-runtime-mock', schema_version: 1 });
  const tables = (await admin<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = $1 ORDER BY 1`, [schema])).map((r) => r.t);
  assert.equal(tables, ['prm_changes', 'prm_head', 'prm_meta', 'prm_records', 'prm_reset']);
  const [head] = await admin<{ seq: string }>(`SELECT seq FROM ${schema}.prm_head`);
  assert.is(Number(head.seq), mock.store.seq);
  const again = await app(schema, { fixtures: {} });
  assert.equal(again.store.toData(), mock.store.toData());
});

test('schema: a newer version is refused, naming the table; nothing is written', async () => {
  const schema = freshSchema();
  await app(schema);
  await admin(`UPDATE ${schema}.prm_meta SET schema_version = 7`);
  const before = await admin(`SELECT seq FROM ${schema}.prm_head`);
  const err = await createApp({ storage: storage(schema), fixtures: demoFixture(), reset: true }).catch((e: unknown) => e);
  assert.instance(err, DatabaseSchemaError);
  assert.match((err as Error).message, `table "${schema}".prm_meta holds schema version 7, newer than this build's 1`);
  assert.not.match((err as Error).message, /password/);
  assert.equal(await admin(`SELECT seq FROM ${schema}.prm_head`), before);
});

test('schema: foreign tables are refused, naming the table', async () => {
  const foreign = freshSchema();
  await admin(`CREATE SCHEMA ${foreign}`);
  await admin(`CREATE TABLE ${foreign}.prm_records (id int)`);
  const err = await createApp({ storage: storage(foreign), fixtures: demoFixture() }).catch((e: unknown) => e);
  assert.instance(err, DatabaseSchemaError);
  assert.match((err as Error).message, `table "${foreign}".prm_records is not one of project-runtime-mock`);
  const odd = freshSchema();
  await admin(`CREATE SCHEMA ${odd}`);
  await admin(`CREATE TABLE ${odd}.prm_meta (name text)`);
  const err2 = await createApp({ storage: storage(odd), fixtures: demoFixture() }).catch((e: unknown) => e);
  assert.match((err2 as Error).message, `table "${odd}".prm_meta is not one of project-runtime-mock (its columns differ)`);
  const other = freshSchema();
  await app(other);
  await admin(`UPDATE ${other}.prm_meta SET format = 'something-else'`);
  const err3 = await createApp({ storage: storage(other), fixtures: demoFixture() }).catch((e: unknown) => e);
  assert.match((err3 as Error).message, `table "${other}".prm_meta is not one of project-runtime-mock (format "something-else")`);
});

test('seeding: apps starting together on an empty schema seed it once and share that state', async () => {
  const schema = freshSchema();
  const started = await Promise.all([0, 1, 2].map(() => app(schema)));
  const [changes] = await admin<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.prm_changes`);
  assert.is(Number(changes.n), 1, 'one whole state stored');
  for (const m of started) assert.equal(m.store.toData(), started[0].store.toData());
  // A write, then an app without reset: loaded as is; with reset: reseeded, and the others see it.
  await request(started[0].callback()).put(`/api/v3/projects/${P}/budget`).set(operator).send({ user_daily_usd: 3 }).expect(200);
  const late = await app(schema);
  assert.is(late.store.get('budgets', P)!.limits.user_daily_usd, 3);
  const reseeded = await app(schema, { reset: true });
  assert.is(reseeded.store.get('budgets', P)!.limits.user_daily_usd, 5);
  const read = await request(started[1].callback()).get('/_mock/state').expect(200);
  assert.is(read.body.budgets.find((b: { project_id: string }) => b.project_id === P).limits.user_daily_usd, 5);
});

test.run();
