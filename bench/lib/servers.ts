// Child servers for the benchmark: the built CLI, bare Koa and json-server, each a process on 127.0.0.1, killed on exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { WORK } from './data.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

export interface Server {
  url: string;
  /** The child's process id (to read its /proc figures). */
  pid?: number;
  /** Resolves when the child exits, for whatever reason. */
  exited?: Promise<void>;
  /** What the child wrote to stderr so far (the last 64 KiB). */
  stderr?: () => string;
  stop(): Promise<void>;
}
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

/** Spawns `node ...args` and resolves once stdout shows `ready` (default: the CLI's "listening on URL" line). */
export function start(args: string[], opts: { ready?: RegExp; url?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Server> {
  const ready = opts.ready ?? /listening on (http:\/\/\S+)\n/;
  const proc = spawn(process.execPath, args, { cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  children.add(proc);
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  let out = '';
  let err = '';
  proc.stderr!.on('data', (c) => (err = (err + c).slice(-65536)));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (c) => {
      out += c;
      const m = ready.exec(out);
      if (m) {
        proc.stdout!.removeAllListeners('data').resume();
        resolve({
          url: opts.url ?? m[1],
          pid: proc.pid,
          exited,
          stderr: () => err,
          stop: () => {
            proc.kill('SIGKILL');
            children.delete(proc);
            return exited;
          },
        });
      }
    });
    exited.then(() => reject(new Error(`${args.join(' ')} exited: ${err}`)));
  });
}

/** CPU seconds a child has used so far (user + system, all threads; Linux /proc, in ticks of 10 ms). */
export function cpuSeconds(server: Server): number {
  const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(stat[11]) + Number(stat[12])) / 100;
}

export const mockServer = (...flags: string[]) => start(['dist/cli.js', '--port', '0', ...flags]);
export const bareKoa = (jsonFile?: string) => start(['bench/servers/bare-koa.mjs', ...(jsonFile ? [jsonFile] : [])]);

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

export async function jsonServer(db: string): Promise<Server> {
  const port = await freePort();
  // NODE_ENV=production turns off its file watcher (which would re-read the db after each of its own writes): its fastest mode.
  // It serves ./public statically, and in production mode that folder must exist: it runs in bench/.work with an empty one.
  mkdirSync(`${WORK}public`, { recursive: true });
  return start([require.resolve('json-server/lib/bin.js'), db, '--port', String(port)], {
    cwd: WORK,
    ready: /JSON Server started/,
    url: `http://127.0.0.1:${port}`,
    env: { NODE_ENV: 'production' },
  });
}
