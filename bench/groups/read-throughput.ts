// Groups a/b: bare Koa + @koa/router serving the run-detail JSON, against GET run detail with bearer auth on the mock.
import { RUN, writeWork } from '../lib/data.js';
import { AUTH, compare, rps, runPath } from '../lib/load.js';
import { bad, fmt, report } from '../lib/report.js';
import { bareKoa, mockServer } from '../lib/servers.js';

export async function readThroughput() {
  const mock = await mockServer('--memory');
  const detail = await (await fetch(mock.url + runPath(RUN), { headers: AUTH })).text();
  const bare = await bareKoa(writeWork('run-detail.json', detail));
  const { base, subject } = await compare({ url: bare.url, path: runPath(RUN) }, { url: mock.url, path: runPath(RUN), headers: AUTH });
  const ratio = rps(subject) / rps(base);
  report({ id: 'a', what: 'bare Koa + @koa/router GET, same JSON (req/s)', value: fmt(rps(base)) + bad(base), baseline: '', ratio: '', target: 'baseline', met: null });
  report({ id: 'b', what: 'GET run detail, bearer auth, memory (req/s)', value: fmt(rps(subject)) + bad(subject), baseline: fmt(rps(base)), ratio: `${fmt(ratio, 2)} x a`, target: '>= 0.9 x a', met: ratio >= 0.9 });
  await Promise.all([mock.stop(), bare.stop()]);
}
