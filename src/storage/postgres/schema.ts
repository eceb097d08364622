// The tables one PostgreSQL schema holds for the mock, created on first use and versioned; a foreign or newer layout is refused by name.
import type pg from 'pg';
import { DatabaseSchemaError, SCHEMA_FORMAT, SCHEMA_VERSION } from './schema-version.js';

export interface Tables {
  /** The schema's quoted name, e.g. "public". */
  readonly schema: string;
  /** One row: the format and version of this layout, and a random secret every instance shares (it seals exported secrets). */
  readonly meta: string;
  /** One row: the seq of the last stored change set, the clock and the settings after it. */
  readonly head: string;
  /** The state: one row per record, in the store's order (ord_seq, ord_i). */
  readonly records: string;
  /** The recent change sets by seq (a null body is a whole new state), for instances that catch up. */
  readonly changes: string;
  /** One row: the state a reset returns to (the fixtures last loaded). */
  readonly reset: string;
  /** Shared sandboxes: one row each (who, when, its time to live, its head seq, the base its state starts from). */
  readonly sandboxes: string;
  /** Whole states sandboxes start from (and reset to), by the hash of their JSON text: one row however many share it. */
  readonly bases: string;
  /** Each sandbox's change sets since its base (its state is its base plus these). */
  readonly sandboxChanges: string;
  /** A short stable name of the schema, for its NOTIFY channel and its prepared statements' names. */
  readonly tag: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function tables(schema: string): Tables {
  const q = quote(schema);
  return {
    schema: q,
    meta: `${q}.prm_meta`,
    head: `${q}.prm_head`,
    records: `${q}.prm_records`,
    changes: `${q}.prm_changes`,
    reset: `${q}.prm_reset`,
    sandboxes: `${q}.prm_sandboxes`,
    bases: `${q}.prm_sandbox_bases`,
    sandboxChanges: `${q}.prm_sandbox_changes`,
    tag: hashName(schema),
  };
}

/** A short stable name for per-schema channels and statements. */
function hashName(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

const NAMES = ['prm_meta', 'prm_head', 'prm_records', 'prm_changes', 'prm_reset'];

function ddl(t: Tables): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${t.schema};
CREATE TABLE ${t.meta} (id smallint PRIMARY KEY CHECK (id = 1), format text NOT NULL, schema_version integer NOT NULL, secret text NOT NULL);
CREATE TABLE ${t.head} (id smallint PRIMARY KEY CHECK (id = 1), seq bigint NOT NULL, clock json, settings json);
CREATE TABLE ${t.records} (collection text NOT NULL, key text NOT NULL, ord_seq bigint NOT NULL, ord_i integer NOT NULL, record json NOT NULL, PRIMARY KEY (collection, key));
CREATE INDEX ON ${t.records} (collection, ord_seq, ord_i);
CREATE TABLE ${t.changes} (seq bigint PRIMARY KEY, body text);
CREATE TABLE ${t.reset} (id smallint PRIMARY KEY CHECK (id = 1), state json NOT NULL);
INSERT INTO ${t.head} (id, seq) VALUES (1, 0);
INSERT INTO ${t.meta} (id, format, schema_version, secret) VALUES (1, '${SCHEMA_FORMAT}', ${SCHEMA_VERSION}, gen_random_uuid()::text);`;
}

/** The sandbox tables, created on the first use of a sandbox (a database without sandboxes never holds them). */
export async function ensureSandboxTables(client: pg.ClientBase, schema: string): Promise<void> {
  const t = tables(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`project-runtime-mock schema ${schema}`]);
    await client.query(`
CREATE TABLE IF NOT EXISTS ${t.bases} (hash text PRIMARY KEY, state text NOT NULL);
CREATE TABLE IF NOT EXISTS ${t.sandboxes} (id text PRIMARY KEY, ord bigserial NOT NULL, name text, seed text, created_ms bigint NOT NULL,
  last_ms bigint NOT NULL, ttl_ms bigint NOT NULL, seq bigint NOT NULL, base_seq bigint NOT NULL,
  base text NOT NULL REFERENCES ${t.bases} (hash), reset text NOT NULL REFERENCES ${t.bases} (hash));
CREATE TABLE IF NOT EXISTS ${t.sandboxChanges} (sandbox text NOT NULL REFERENCES ${t.sandboxes} (id) ON DELETE CASCADE, seq bigint NOT NULL,
  body text NOT NULL, PRIMARY KEY (sandbox, seq));`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * Creates the tables when the schema has none of them, else checks that they are this layout. Instances that start
 * together take an advisory lock for it, so exactly one creates them.
 */
export async function ensureSchema(client: pg.ClientBase, schema: string, database: string): Promise<void> {
  const t = tables(schema);
  const refuse = (table: string, why: string) => new DatabaseSchemaError(database, `table ${quote(schema)}.${table} ${why}`);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`project-runtime-mock schema ${schema}`]);
    const { rows } = await client.query<{ name: string }>(
      'SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = ANY($2)',
      [schema, NAMES],
    );
    const present = new Set(rows.map((r) => r.name));
    if (present.size === 0) {
      await client.query(ddl(t));
    } else {
      if (!present.has('prm_meta')) throw refuse([...present][0], 'is not one of project-runtime-mock (there is no prm_meta table beside it)');
      let meta: { format: unknown; schema_version: unknown } | undefined;
      try {
        await client.query('SAVEPOINT meta');
        meta = (await client.query(`SELECT format, schema_version FROM ${t.meta} WHERE id = 1`)).rows[0];
      } catch {
        throw refuse('prm_meta', 'is not one of project-runtime-mock (its columns differ)');
      }
      if (!meta || meta.format !== SCHEMA_FORMAT)
        throw refuse('prm_meta', `is not one of project-runtime-mock (format ${JSON.stringify(meta?.format ?? null)})`);
      const version = Number(meta.schema_version);
      if (version > SCHEMA_VERSION)
        throw refuse('prm_meta', `holds schema version ${version}, newer than this build's ${SCHEMA_VERSION}: upgrade project-runtime-mock`);
      if (version !== SCHEMA_VERSION) throw refuse('prm_meta', `holds schema version ${version}, which this build does not read`);
      const missing = NAMES.filter((n) => !present.has(n));
      if (missing.length) throw refuse(missing[0], 'is missing');
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
