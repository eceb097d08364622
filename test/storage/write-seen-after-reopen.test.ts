// A write applied but never stored would show only to a later reader of the storage: after each acknowledged write, a
// fresh mock on the same storage (the JSON file reopened, a new PostgreSQL instance) sees what the writer answered.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { DATABASE_URL, dropCreated, freshSchema } from '../helpers/postgres.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { removeDirs } from '../helpers/storages.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const json = { 'Content-Type': 'application/json' };
test.after(async () => {
  removeDirs();
  if (DATABASE_URL) await dropCreated();
});

const read = async (m: MockApp, path: string, headers: Record<string, string> = owner) => {
  const r = await m.fetch(path, { headers });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

const places: { name: string; make: () => () => ReturnType<typeof postgresStorage> | JsonFileAdapter }[] = [
  {
    name: 'json-file',
    make: () => {
      const file = join(mkdtempSync(join(tmpdir(), 'prm-reopen-')), 'db.json');
      return () => new JsonFileAdapter(file);
    },
  },
  ...(DATABASE_URL
    ? [
        {
          name: 'postgres',
          make: () => {
            const schema = freshSchema();
            return () => postgresStorage({ connectionString: DATABASE_URL, schema });
          },
        },
      ]
    : []),
];

test('a v3 write and a /_mock write, each acknowledged, are what a fresh mock on the same storage reads', async () => {
  for (const place of places) {
    const open = place.make();
    const writer = await createApp({ storage: open(), fixtures: demoFixture(), seed: 'reopen', reset: true });
    let minted: Record<string, unknown>;
    let retention: number;
    try {
      const retried = await writer.fetch(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`, {
        method: 'POST',
        headers: { ...owner, ...json },
        body: '{}',
      });
      assert.is(retried.status, 201, place.name);
      minted = (await retried.json()) as Record<string, unknown>;
      const sim = await writer.fetch('/_mock/simulation', { method: 'PUT', headers: json, body: JSON.stringify({ retention_days: 5 }) });
      assert.is(sim.status, 200, place.name);
      retention = ((await sim.json()) as { retention_days: number }).retention_days;
      assert.is(retention, 5);
    } finally {
      await writer.close();
    }
    const reader = await createApp({ storage: open(), fixtures: demoFixture(), seed: 'reopen' });
    try {
      const run = await read(reader, `/api/v3/projects/${P}/runs/${minted.id as string}`);
      assert.is(run.status, 200, place.name);
      assert.equal([run.body.id, run.body.status, run.body.project_id], [minted.id, minted.status, P], place.name);
      const sim = await read(reader, '/_mock/simulation', {});
      assert.is(sim.body.retention_days, 5, place.name);
    } finally {
      await reader.close();
    }
  }
});

test('a reset and a state import, each acknowledged, are what a fresh mock on the same storage reads', async () => {
  const budget = `/api/v3/projects/${P}/budget`;
  // One key for the three mocks: the exported state's sealed values open in the one that imports it.
  const sealKey = 'reopen-seal-key-of-this-test';
  // An empty PUT changes no limit: it answers the stored ones.
  const limitOf = async (m: MockApp) => {
    const r = await m.fetch(budget, { method: 'PUT', headers: { ...owner, ...json }, body: '{}' });
    assert.is(r.status, 200);
    return ((await r.json()) as { limits: { project_daily_usd: number } }).limits.project_daily_usd;
  };
  for (const place of places) {
    const open = place.make();
    const writer = await createApp({ storage: open(), fixtures: demoFixture(), reset: true, sealKey });
    let fixtureLimit: number;
    let exported: string;
    try {
      fixtureLimit = await limitOf(writer);
      const put = await writer.fetch(budget, {
        method: 'PUT',
        headers: { ...owner, ...json },
        body: JSON.stringify({ project_daily_usd: fixtureLimit + 123 }),
      });
      assert.is(put.status, 200, place.name);
      const state = await writer.fetch('/_mock/state');
      assert.is(state.status, 200, place.name);
      exported = await state.text();
      const reset = await writer.fetch('/_mock/reset', { method: 'POST', headers: json, body: '{}' });
      assert.is(reset.status, 200, place.name);
      assert.is(await limitOf(writer), fixtureLimit, place.name);
    } finally {
      await writer.close();
    }
    // The reset was stored: the write before it is gone for a fresh reader.
    const importer = await createApp({ storage: open(), fixtures: demoFixture(), sealKey });
    try {
      assert.is(await limitOf(importer), fixtureLimit, `${place.name}: the reset is stored`);
      const imported = await importer.fetch('/_mock/state', { method: 'PUT', headers: json, body: exported });
      assert.is(imported.status, 200, `${place.name}: ${await imported.clone().text()}`);
    } finally {
      await importer.close();
    }
    // The import was stored: the state it carried is back for a fresh reader.
    const reader = await createApp({ storage: open(), fixtures: demoFixture(), sealKey });
    try {
      assert.is(await limitOf(reader), fixtureLimit + 123, `${place.name}: the import is stored`);
    } finally {
      await reader.close();
    }
  }
});

test.run();
