// Group idle: GET run detail on a server that went quiet through full collections, against the same on commit e249f18
// (the last build that did not hold one of Node's tick objects). Three full collections with no tick alive free the
// shape V8 gave Node's ticks, and from then on every process.nextTick defines its properties in V8's runtime.
import { join } from 'node:path';
import { ab } from '../lib/ab.js';
import { AUTH, EDGE, rps, runPath } from '../lib/load.js';
import { RUN } from '../lib/data.js';
import { pinnedBuild } from '../lib/pinned.js';
import { bad, reportThroughput } from '../lib/report.js';
import { ROOT, start, type Server } from '../lib/servers.js';

/** The last commit before the hold: its CLI serves the same bytes. */
export const UNHELD = 'e249f18';

const say = (line: string) => process.stderr.write(`  idle: ${line}\n`);
const NODE = ['--expose-gc', '--import', join(ROOT, 'bench/servers/idle-gc.mjs')];
const cli = (cwd: string) => start([...NODE, 'dist/cli.js', '--port', '0', '--memory'], { cwd });
const read = (s: Server) => ({ url: s.url, path: runPath(RUN), headers: AUTH });

export async function idleGroup() {
  const [before, now] = await Promise.all([cli(pinnedBuild(UNHELD)), cli(ROOT)]);
  try {
    // The control: both warm, before any collection was forced. The builds differ only by the hold, so no target.
    say(`GET run detail, ${UNHELD} against today's build, both warm`);
    const warm = await ab(before, now, read(before), read(now), EDGE);
    reportThroughput(
      { id: 'b-warm0', what: `GET run detail, warm, on commit ${UNHELD} (req/s)`, rps: rps(warm.base), bad: bad(warm.base) },
      { id: 'b-warm', what: `GET run detail, warm, against commit ${UNHELD} (req/s)`, rps: rps(warm.subject), bad: bad(warm.subject) },
      null,
      warm.cpu,
    );
    say('three full collections in each server while it is idle');
    for (const s of [before, now]) process.kill(s.pid!, 'SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    say(`GET run detail after them, ${UNHELD} against today's build`);
    const idle = await ab(before, now, read(before), read(now), EDGE);
    reportThroughput(
      { id: 'b-idle0', what: `GET run detail after an idle spell's full collections, on commit ${UNHELD} (req/s)`, rps: rps(idle.base), bad: bad(idle.base) },
      {
        id: 'b-idle',
        what: `GET run detail after an idle spell's full collections, against commit ${UNHELD} (req/s)`,
        rps: rps(idle.subject),
        bad: bad(idle.subject),
      },
      1.1,
      idle.cpu,
    );
  } finally {
    await Promise.all([before.stop(), now.stop()]);
  }
}
