// Group img: the container image's start (podman run) to its first answered GET, against the CLI on the host.
import { performance } from 'node:perf_hooks';
import { RUN } from '../lib/data.js';
import { AUTH, runPath } from '../lib/load.js';
import { fmt, median, report } from '../lib/report.js';
import { freePort, mockServer } from '../lib/servers.js';
import { buildImage, podman } from '../../scripts/container-image.js';

const ROUNDS = 9;

/**
 * ms from `podman run` to the first 200 of GET run detail (polled every 5 ms), both in memory mode; then removed. The
 * command is a user's: `podman run -d -p 127.0.0.1:PORT:4010 IMAGE` on a port chosen first, the HEALTHCHECK left on.
 */
async function containerOnce(image: string, name: string): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  podman(['run', '--detach', '--rm', '--name', name, '--publish', `127.0.0.1:${port}:4010`, '--env', 'PRM_MEMORY=true', image]);
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}${runPath(RUN)}`, { headers: AUTH }).catch(() => undefined);
    if (res) {
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`first response ${res.status}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = performance.now() - t0;
  podman(['stop', '--time', '10', name]);
  return ms;
}

async function cliOnce(): Promise<number> {
  const t0 = performance.now();
  const server = await mockServer('--memory');
  const res = await fetch(server.url + runPath(RUN), { headers: AUTH });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  await server.stop();
  if (res.status !== 200) throw new Error(`first response ${res.status}`);
  return ms;
}

export async function containerGroup() {
  const { tag } = await buildImage();
  const name = `prm-bench-${process.pid}`;
  await containerOnce(tag, name); // warm podman's storage and the page cache
  await cliOnce();
  const image: number[] = [];
  const cli: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    image.push(await containerOnce(tag, name));
    cli.push(await cliOnce());
  }
  const ratio = median(image) / median(cli);
  report({
    id: 'img',
    what: `container image (podman run, --memory): start to first response, median of ${ROUNDS}`,
    value: `${fmt(median(image))} ms`,
    baseline: `${fmt(median(cli))} ms (CLI --memory on the host)`,
    ratio: `${fmt(ratio, 2)} x`,
    target: '<= 1.5 x',
    met: ratio <= 1.5,
  });
}
