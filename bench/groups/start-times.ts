// Groups g0/g: spawn to first answered GET, bare Koa against the CLI in memory mode with the demo fixture.
import { performance } from 'node:perf_hooks';
import { RUN } from '../lib/data.js';
import { AUTH, runPath } from '../lib/load.js';
import { fmt, median, report } from '../lib/report.js';
import { bareKoa, mockServer, type Server } from '../lib/servers.js';

export async function startTimes() {
  const once = async (launch: () => Promise<Server>, headers: Record<string, string> = {}) => {
    const t0 = performance.now();
    const server = await launch();
    const res = await fetch(server.url + runPath(RUN), { headers });
    await res.arrayBuffer();
    const ms = performance.now() - t0;
    await server.stop();
    if (res.status !== 200) throw new Error(`first response ${res.status}`);
    return ms;
  };
  const bare: number[] = [];
  const cli: number[] = [];
  await once(() => bareKoa()); // warm the file cache
  await once(() => mockServer('--memory'), AUTH);
  for (let i = 0; i < 15; i++) {
    bare.push(await once(() => bareKoa()));
    cli.push(await once(() => mockServer('--memory'), AUTH));
  }
  const ratio = median(cli) / median(bare);
  report({
    id: 'g0',
    what: 'bare Koa + koa-body: spawn to first response, median of 15',
    value: `${fmt(median(bare))} ms`,
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: 'g',
    what: 'CLI --memory (demo): spawn to first response, median of 15',
    value: `${fmt(median(cli))} ms`,
    baseline: `${fmt(median(bare))} ms`,
    ratio: `${fmt(ratio, 2)} x g0`,
    target: '<= 1.15 x g0',
    met: ratio <= 1.15,
  });
}
