// Runs the image for the tests and the bench: detached, published on a free loopback port, ready once it answers.
import { spawnSync } from 'node:child_process';
import { PODMAN, podman } from './container-image.js';

/** `podman run` to its end (no -d, no health check): exit code and output, for a container that must refuse to start. */
export interface RunOptions {
  env?: Record<string, string>;
  args?: string[];
  timeoutMs?: number;
}

export function runToExit(image: string, { env = {}, args = [], timeoutMs = 30_000 }: RunOptions = {}) {
  const r = spawnSync(PODMAN[0], [...PODMAN.slice(1), 'run', '--rm', '--no-healthcheck', ...envArgs(env), image, ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const envArgs = (env: Record<string, string>) => Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);

/** Resolves when GET url answers at all (any status), or rejects after timeoutMs with the container's log. */
async function answering(url: string, name: string, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      if (performance.now() > until) {
        const log = spawnSync(PODMAN[0], [...PODMAN.slice(1), 'logs', name], { encoding: 'utf8' });
        throw new Error(`${name} did not answer ${url} in ${timeoutMs} ms:\n${log.stdout}${log.stderr}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/**
 * Starts a container of `image` named `name`, port 4010 published on 127.0.0.1 (a free port), and waits until it
 * answers. `volume` mounts a named volume on /data; `network` and `alias` join a network under a host name. The
 * periodic health check is off (podman runs it by systemd timers, absent on CI machines); `podman healthcheck run`
 * still runs it on demand.
 */
export async function startContainer(
  image: string,
  { name, env = {}, args = [], volume, network, alias, timeoutMs = 30_000 }: RunOptions & { name: string; volume?: string; network?: string; alias?: string },
): Promise<Running> {
  podman(['rm', '--force', '--ignore', name]);
  const options = ['--detach', '--name', name, '--publish', '127.0.0.1::4010', '--health-interval', 'disable', ...envArgs(env)];
  if (volume) options.push('--volume', `${volume}:/data`);
  if (network) options.push('--network', network, ...(alias ? ['--network-alias', alias] : []));
  podman(['run', ...options, image, ...args]);
  return attach(name, timeoutMs);
}

export interface Running {
  name: string;
  url: string;
  stop(): { ms: number; exitCode: number };
  restart(): Promise<Running>;
  logs(): { stdout: string; stderr: string };
  remove(): void;
}

/** A running container's published URL, ready (it answers), with its stop and removal. */
export async function attach(name: string, timeoutMs = 30_000): Promise<Running> {
  const port = podman(['port', name, '4010/tcp']).trim().split('\n')[0].split(':').at(-1);
  const url = `http://127.0.0.1:${port}`;
  await answering(`${url}/_mock/health`, name, timeoutMs);
  return {
    name,
    url,
    /** `podman stop` (SIGTERM, SIGKILL after 10 s): its time and the server's exit code. */
    stop() {
      const started = performance.now();
      podman(['stop', '--time', '10', name]);
      const ms = performance.now() - started;
      return { ms, exitCode: Number(podman(['inspect', name, '--format', '{{.State.ExitCode}}']).trim()) };
    },
    /** Starts the stopped container again (same volume, same port mapping) and waits until it answers. */
    async restart() {
      podman(['start', name]);
      return attach(name, timeoutMs);
    },
    logs: () => {
      const r = spawnSync(PODMAN[0], [...PODMAN.slice(1), 'logs', name], { encoding: 'utf8' });
      return { stdout: r.stdout, stderr: r.stderr };
    },
    remove: () => void podman(['rm', '--force', '--ignore', name]),
  };
}
