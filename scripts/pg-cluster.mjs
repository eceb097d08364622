// A private PostgreSQL cluster for the tests and the bench: Debian's server binaries, a data directory in a temp dir,
// a free port on 127.0.0.1 (as the postgres user when run as root). `node scripts/pg-cluster.mjs start [--fast]` prints
// shell assignments (DATABASE_URL exported, PG_CLUSTER_DIR); `stop DIR` stops that cluster and removes its directory.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBin() {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'pg_ctl')) && existsSync(join(dir, 'initdb'))) return dir;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? join(root, versions[0], 'bin') : null;
}

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/** Runs a server binary, as the postgres user when we are root (the server refuses to run as root). */
function run(bin, args) {
  if (!isRoot()) return execFileSync(join(bin, args[0]), args.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  return execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', [join(bin, args[0]), ...args.slice(1)].map(quote).join(' ')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts a cluster and resolves with its URL. `fast` turns off fsync (for tests that do not measure durability of the
 * server itself); the bench keeps the server's durable defaults.
 */
export async function startCluster({ fast = false } = {}) {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'prm-pg-'));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  run(bin, ['initdb', '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  const settings = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c max_connections=300'];
  if (fast) settings.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
  run(bin, ['pg_ctl', '-D', data, '-o', settings.join(' '), '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dir, stop: () => stopCluster(dir) };
}

/** Stops the cluster in `dir` (immediately: nothing in it is kept) and removes the directory. */
export function stopCluster(dir) {
  const bin = postgresBin();
  try {
    if (bin) run(bin, ['pg_ctl', '-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, arg] = process.argv.slice(2);
  if (command === 'start') {
    const { url, dir } = await startCluster({ fast: arg === '--fast' });
    process.stdout.write(`export DATABASE_URL=${quote(url)}\nPG_CLUSTER_DIR=${quote(dir)}\n`); // exported: the tests run in child processes
  } else if (command === 'stop' && arg) {
    stopCluster(arg);
  } else {
    process.stderr.write('usage: node scripts/pg-cluster.mjs start [--fast] | stop DIR\n');
    process.exit(2);
  }
}
