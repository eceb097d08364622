// Groups a/b: bare Koa + @koa/router serving the run-detail JSON, and json-server 1.x GET by id, against GET run detail with bearer auth on the mock.
import { RUN, writeWork } from '../lib/data.js';
import { AUTH, compare, rps, runPath } from '../lib/load.js';
import { bad, fmt, report, reportThroughput } from '../lib/report.js';
import { bareKoa, jsonServer, mockServer } from '../lib/servers.js';

export async function readThroughput() {
  const mock = await mockServer('--memory');
  const detail = await (await fetch(mock.url + runPath(RUN), { headers: AUTH })).text();
  const bare = await bareKoa(writeWork('run-detail.json', detail));
  const { base, subject } = await compare({ url: bare.url, path: runPath(RUN) }, { url: mock.url, path: runPath(RUN), headers: AUTH });
  reportThroughput(
    { id: 'a', what: 'bare Koa + @koa/router GET, same JSON (req/s)', rps: rps(base), bad: bad(base) },
    { id: 'b', what: 'GET run detail, bearer auth, memory (req/s)', rps: rps(subject), bad: bad(subject) },
    0.9,
  );
  await bare.stop();

  // json-server answers the same document by id from its own db (GET /runs/:id).
  const js = await jsonServer(writeWork('json-server-run.json', JSON.stringify({ runs: [JSON.parse(detail)] })));
  const vs = await compare({ url: js.url, path: `/runs/${RUN}` }, { url: mock.url, path: runPath(RUN), headers: AUTH });
  const jsRatio = rps(vs.subject) / rps(vs.base);
  report({
    id: 'b0',
    what: 'json-server 1.0.0-beta.3 GET by id, same JSON (req/s)',
    value: fmt(rps(vs.base)) + bad(vs.base),
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: 'b-js',
    what: 'GET run detail vs json-server GET by id (req/s)',
    value: fmt(rps(vs.subject)) + bad(vs.subject),
    baseline: fmt(rps(vs.base)),
    ratio: `${fmt(jsRatio, 2)} x b0`,
    target: '>= 1 x b0',
    met: jsRatio >= 1,
  });
  await Promise.all([mock.stop(), js.stop()]);
}
