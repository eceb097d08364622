// Groups a/b: bare Koa + @koa/router serving the run-detail JSON, and json-server 1.x GET by id, against GET run detail with bearer auth on the mock;
// raw node:http writing the same bytes (the limit), and the same request on a pinned older commit (drift as a ratio).
import { RUN, writeWork } from '../lib/data.js';
import { AUTH, EDGE, compare, rps, runPath } from '../lib/load.js';
import { bad, fmt, report, reportThroughput } from '../lib/report.js';
import { bareKoa, jsonServer, mockServer, start } from '../lib/servers.js';
import { pinnedCli } from '../lib/pinned.js';

/** The commit b-ab measures against: GET run detail served at 1.23-1.24 x bare Koa then. */
const PINNED = '1627036';

export async function readThroughput() {
  const mock = await mockServer('--memory');
  const detail = await (await fetch(mock.url + runPath(RUN), { headers: AUTH })).text();
  const bare = await bareKoa(writeWork('run-detail.json', detail));
  const { base, subject } = await compare({ url: bare.url, path: runPath(RUN) }, { url: mock.url, path: runPath(RUN), headers: AUTH });
  reportThroughput(
    { id: 'a', what: 'bare Koa + @koa/router GET, same JSON (req/s)', rps: rps(base), bad: bad(base) },
    { id: 'b', what: 'GET run detail, bearer auth, memory (req/s)', rps: rps(subject), bad: bad(subject) },
    1.25,
  );
  await bare.stop();

  // The limit: raw node:http writing the same bytes, no framework. Its figure has stood within a tenth of its target in
  // every run, so it gets the edge rows' short rounds.
  const raw = await start(['bench/servers/raw-http.mjs', writeWork('run-detail.json', detail)]);
  const vsRaw = await compare({ url: raw.url, path: runPath(RUN) }, { url: mock.url, path: runPath(RUN), headers: AUTH }, EDGE);
  reportThroughput(
    { id: 'b-raw0', what: 'raw node:http writing the same bytes (req/s)', rps: rps(vsRaw.base), bad: bad(vsRaw.base) },
    { id: 'b-raw', what: 'GET run detail against raw node:http (req/s)', rps: rps(vsRaw.subject), bad: bad(vsRaw.subject) },
    0.65,
  );
  await raw.stop();

  // Drift: the same request on the pinned commit's CLI, built once in a worktree of its own.
  const pinned = await pinnedCli(PINNED, '--memory');
  const vsPinned = await compare({ url: pinned.url, path: runPath(RUN), headers: AUTH }, { url: mock.url, path: runPath(RUN), headers: AUTH });
  reportThroughput(
    { id: 'b-ab0', what: `GET run detail on commit ${PINNED} (req/s)`, rps: rps(vsPinned.base), bad: bad(vsPinned.base) },
    { id: 'b-ab', what: `GET run detail against commit ${PINNED} (req/s)`, rps: rps(vsPinned.subject), bad: bad(vsPinned.subject) },
    1.0,
  );
  await pinned.stop();

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
