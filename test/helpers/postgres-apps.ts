// Demo apps on PostgreSQL schemas for one suite: every app it made is closed, and every schema made dropped, after its tests.
import type { Test } from 'uvu';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { postgresStorage, type PostgresOptions } from '../../src/storage/postgres/index.js';
import { DATABASE_URL, dropCreated } from './postgres.js';

export function postgresApps(test: Test) {
  const apps: MockApp[] = [];
  const storage = (schema: string, extra: Partial<PostgresOptions> = {}) => postgresStorage({ connectionString: DATABASE_URL, schema, ...extra });
  async function app(schema: string, options: Parameters<typeof createApp>[0] = {}): Promise<MockApp> {
    const mock = await createApp({ storage: storage(schema), fixtures: demoFixture(), ...options });
    apps.push(mock);
    return mock;
  }
  test.after(async () => {
    await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
    await dropCreated();
  });
  return { storage, app, apps };
}
