// The adapter contract suite (test/helpers/adapter-contract.ts) over memory, the JSON file and a plain lowdb whole-document
// adapter; PostgreSQL runs the same suite in postgres-schema.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSONFile } from 'lowdb/node';
import { JsonFileAdapter, MemoryAdapter, type StorageAdapter } from '../../src/storage/adapters.js';
import type { DataFile } from '../../src/schemas/state.js';
import { adapterContract } from '../helpers/adapter-contract.js';

const tmpFile = () => join(mkdtempSync(join(tmpdir(), 'prm-store-')), 'db.json');
const quiet = { report: {} };

const adapters: [string, () => StorageAdapter][] = [
  ['memory', () => new MemoryAdapter()],
  ['json-file', () => new JsonFileAdapter(tmpFile(), quiet)],
  ['plain lowdb JSONFile (whole document)', () => new JSONFile<DataFile>(tmpFile())],
];

for (const [name, make] of adapters) adapterContract(name, make);
