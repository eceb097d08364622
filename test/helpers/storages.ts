// Every storage a suite runs on (memory, the JSON file, PostgreSQL when DATABASE_URL is set), each wrapped so that a
// test can read back the change sets in the order they were stored, and a mock listening on a socket for each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import {
  JsonFileAdapter,
  MemoryAdapter,
  postgresStorage,
  type CaughtUp,
  type ChangeSet,
  type ChangeSetAdapter,
  type CommittedState,
  type Rebase,
  type StorageAdapter,
} from '../../src/storage/adapters.js';
import { DATABASE_URL, freshSchema } from './postgres.js';

export interface Storage {
  name: 'memory' | 'json-file' | 'postgres';
  /** A new, empty storage (the same one again for `schema`, on PostgreSQL: several instances share it). */
  make(schema?: string): StorageAdapter;
}

const dirs: string[] = [];

export const STORAGES: Storage[] = [
  { name: 'memory', make: () => new MemoryAdapter() },
  {
    name: 'json-file',
    make: () => {
      const dir = mkdtempSync(join(tmpdir(), 'prm-races-'));
      dirs.push(dir);
      return new JsonFileAdapter(join(dir, 'db.json'));
    },
  },
  ...(DATABASE_URL
    ? [{ name: 'postgres' as const, make: (schema?: string) => postgresStorage({ connectionString: DATABASE_URL, schema: schema ?? freshSchema() }) }]
    : []),
];

export function removeDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Wraps a change-set adapter: `log` holds every change set it stored, in the order stored (a rebased group as rebased). */
function recording(inner: StorageAdapter): { adapter: StorageAdapter; log: ChangeSet[] } {
  const log: ChangeSet[] = [];
  const target = inner as ChangeSetAdapter;
  const adapter = new Proxy(target, {
    get(t, key) {
      if (key === 'appendChangeSets') {
        return async (group: readonly ChangeSet[], committed: CommittedState, rebase?: Rebase) => {
          let stored = group;
          const rebased = rebase && ((missed: readonly CaughtUp[]) => (stored = rebase(missed)));
          await t.appendChangeSets(group, committed, rebased);
          log.push(...stored);
        };
      }
      const v = Reflect.get(t, key, t);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
  return { adapter, log };
}

export interface Listening {
  mock: MockApp;
  base: string;
  log: ChangeSet[];
  close(): Promise<void>;
}

/** The demo fixture's mock on `storage`, listening on 127.0.0.1, with the log of what it stored. */
export async function listen(storage: StorageAdapter, options: { reset?: boolean } = {}): Promise<Listening> {
  const { adapter, log } = recording(storage);
  const mock = await createApp({ storage: adapter, fixtures: demoFixture(), reset: options.reset ?? true });
  const server: Server = mock.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    mock,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mock.close();
    },
  };
}

export interface Answer {
  status: number;
  // answers are asserted field by field
  body: any;
}

/** One JSON request (`token`: a bearer token; none for /_mock). */
export async function call(base: string, method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}
