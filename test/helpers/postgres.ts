// PostgreSQL for the suites that need it: DATABASE_URL (skipped without it, failed under CI), a fresh schema or database
// per test, and a TCP proxy in front of the server that the tests cut and restore to play "the database is down".
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { needs } from './needs.js';

export const DATABASE_URL = process.env.DATABASE_URL ?? '';
export const needsPostgres = (): boolean =>
  needs('postgres', DATABASE_URL !== '', 'set DATABASE_URL=postgres://user@host:port/db; .ci/run starts a private cluster');

const created: { schemas: string[]; databases: string[] } = { schemas: [], databases: [] };
const suffix = () => `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

/** A schema name no other test uses (dropped by dropCreated). */
export function freshSchema(): string {
  const name = `prm_t_${suffix()}`;
  created.schemas.push(name);
  return name;
}

/** Runs one statement on DATABASE_URL. */
export async function admin<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[] = [], url = DATABASE_URL): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A new empty database on the same server, and its URL (for CLI processes, which take a URL only). */
export async function freshDatabase(): Promise<string> {
  const name = `prm_t_${suffix()}`;
  await admin(`CREATE DATABASE ${name}`);
  created.databases.push(name);
  return withDatabase(DATABASE_URL, name);
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Drops what this file created (call from test.after). */
export async function dropCreated(): Promise<void> {
  for (const s of created.schemas.splice(0)) await admin(`DROP SCHEMA IF EXISTS ${s} CASCADE`).catch(() => {});
  for (const d of created.databases.splice(0)) await admin(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`).catch(() => {});
}

/** Where the server listens: host and port, or the Unix socket path (libpq's `?host=/dir`). */
function target(url: string): { host: string; port: number } | { path: string } {
  const u = new URL(url);
  const port = Number(u.port || 5432);
  const socketDir = u.searchParams.get('host') ?? (u.hostname === '' ? '/var/run/postgresql' : null);
  if (socketDir && socketDir.startsWith('/')) return { path: `${socketDir}/.s.PGSQL.${port}` };
  return { host: u.hostname, port };
}

export interface Proxy {
  /** DATABASE_URL (or `url`) with its host and port replaced by the proxy's. */
  url: string;
  /** The database goes away: open connections are cut and new ones refused. */
  cut(): Promise<void>;
  /** The database is back. */
  restore(): Promise<void>;
  /** The server's answers are held back (on every connection, open or new) until `release`: a slow network. */
  hold(): void;
  release(): void;
  /** Connections clients opened through the proxy so far. */
  opened(): number;
  close(): Promise<void>;
}

/** A TCP proxy to the server of `url` on 127.0.0.1; cutting it looks to clients like a server that stopped. */
export async function proxy(url = DATABASE_URL): Promise<Proxy> {
  const to = target(url);
  const sockets = new Set<Socket>();
  const answers = new Map<Socket, Socket>(); // upstream -> its client
  let held = false;
  let opened = 0;
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = 'path' in to ? connect(to.path) : connect(to.port, to.host);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      opened++;
      answers.set(upstream, client);
      upstream.on('close', () => answers.delete(upstream));
      client.pipe(upstream);
      if (held) upstream.pause();
      else upstream.pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as { port: number }).port;
  };
  const stop = async () => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise((resolve) => s.close(resolve));
  };
  await listen();
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  u.searchParams.delete('host');
  const hold = () => {
    held = true;
    for (const [up, client] of answers) up.unpipe(client).pause();
  };
  const release = () => {
    held = false;
    for (const [up, client] of answers) up.pipe(client);
  };
  return { url: u.toString(), cut: stop, restore: listen, hold, release, opened: () => opened, close: stop };
}
