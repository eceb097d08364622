// The inspector page from the server's side: GET /_mock/ui and its built files (headers, no token for the static shell,
// the other control checks kept), the journal's polling filters (after, limit, summary) and one entry by id, and the
// CLI's second line. The page itself is driven in a browser by the inspector-browser-*.test.ts suites.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import request from 'supertest';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { CLI, ROOT, runCliToExit } from '../helpers/cli.js';

type Json = Record<string, any>;
const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const built = (name: string) => readFileSync(new URL(`../../dist/inspector/${name}`, import.meta.url));

test('GET /_mock/ui: the HTML shell loads only its own files, cannot be framed, and sends no Referer', async () => {
  const { http } = await freshMock();
  const res = await http.get('/_mock/ui');
  assert.is(res.status, 200);
  assert.is(res.headers['content-type'], 'text/html; charset=utf-8');
  const csp = res.headers['content-security-policy'];
  for (const rule of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "form-action 'none'"])
    assert.match(csp, rule);
  assert.is(res.headers['x-frame-options'], 'DENY');
  assert.is(res.headers['referrer-policy'], 'no-referrer');
  assert.is(res.headers['x-content-type-options'], 'nosniff');
  // Every URL the shell names is under /_mock/ui or a data: URL (no CDN).
  const refs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(refs.sort(), ['/_mock/ui/page.css', '/_mock/ui/page.js', 'data:,']);
  assert.match(res.text, '<div id="app">');
  // Trailing slash and letter case are routed as elsewhere.
  assert.is((await http.get('/_mock/ui/')).status, 200);
});

test('GET /_mock/ui/page.js and page.css: the built bundle, byte for byte; anything else is 404', async () => {
  const { http } = await freshMock();
  const js = await http
    .get('/_mock/ui/page.js')
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  assert.is(js.status, 200);
  assert.is(js.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.ok(Buffer.compare(js.body as Buffer, built('page.js')) === 0, 'page.js is served as built');
  assert.match(js.headers['content-security-policy'], "default-src 'none'");
  const css = await http.get('/_mock/ui/page.css');
  assert.is(css.status, 200);
  assert.is(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.is(css.text, built('page.css').toString('utf8'));
  // The bundle holds no URL of another host (no CDN, no network).
  const text = built('page.js').toString('utf8');
  assert.not.match(text, /https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}/i);
  for (const name of ['index.js', 'page.js.map', '..%2Fcli.js', 'x']) {
    const res = await http.get(`/_mock/ui/${name}`);
    assert.is(res.status, 404, name);
    assert.is(res.body.detail.reason_code, 'route_not_found', name);
  }
  // Only GET: the page takes no writes.
  assert.is((await http.post('/_mock/ui')).status, 405);
});

test('control token: the static page needs none (a navigation cannot send a header); Host, Origin and every data route still apply', async () => {
  const { mock, http } = await freshMock({ controlToken: 'tok' });
  const before = stateOf(mock);
  for (const path of ['/_mock/ui', '/_mock/ui/page.js', '/_mock/ui/page.css']) assert.is((await http.get(path)).status, 200, path);
  // The router matches paths in any letter case, and so does the exemption (unchecked client: the document spells it in lower case).
  assert.is((await request(mock.callback()).get('/_mock/UI')).status, 200);
  assert.is((await http.head('/_mock/ui')).status, 200);
  // Only those reads: the page's data, any other method, and paths that merely start alike need the token.
  // (Unchecked client: /_mock/uix and /_mock/ui/a/b are no documented paths.)
  const raw = request(mock.callback());
  for (const path of ['/_mock/requests', `/_mock/projects/${P}`, '/_mock/uix', '/_mock/ui/a/b', '/_mock/clock']) {
    const res = await raw.get(path);
    assert.is(res.status, 401, path);
    assert.is(res.body.detail.reason_code, 'control_token_invalid', path);
  }
  assert.is((await raw.post('/_mock/ui')).status, 401);
  assert.is((await http.get('/_mock/ui').set('Host', 'attacker.example')).status, 421);
  assert.is((await http.get('/_mock/ui').set('Origin', 'https://evil.example')).status, 403);
  assert.is((await http.get('/_mock/requests').set('X-Mock-Control-Token', 'tok')).status, 200);
  assert.is(stateOf(mock), before);
});

test('control off: no page', async () => {
  const { http } = await freshMock({ control: false });
  for (const path of ['/_mock/ui', '/_mock/ui/page.js']) {
    const res = await http.get(path);
    assert.is(res.status, 404, path);
    assert.is(res.body.detail.reason_code, 'route_not_found');
  }
});

test('journal polling: after an id, the newest N, summaries without bodies', async () => {
  const { mock, http } = await freshMock();
  for (let i = 0; i < 5; i++) await http.get(`/api/v3/projects/${P}/jobs?limit=${i + 1}`).set(owner);
  await http.get(`/api/v3/projects/${P}/users`).set(owner);
  await http.get(`/api/v3/projects/${P}/jobs`);
  const ids = (q: string) =>
    http.get(`/_mock/requests${q}`).then((r) => (assert.is(r.status, 200, JSON.stringify(r.body)), r.body.items.map((e: Json) => e.id)));
  assert.equal(await ids(''), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(await ids('?after=4'), [5, 6, 7]);
  assert.equal(await ids('?after=7'), []);
  assert.equal(await ids('?after=0'), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(await ids('?limit=2'), [6, 7]);
  assert.equal(await ids('?after=1&limit=2'), [6, 7]);
  assert.equal(await ids('?after=2&limit=10'), [3, 4, 5, 6, 7]);
  // With the other filters: the newest N of the matching ones.
  assert.equal(await ids('?path=/jobs&limit=3'), [4, 5, 7]);
  assert.equal(await ids('?path=/jobs&status=2xx&after=2&limit=2'), [4, 5]);
  assert.equal(await ids('?status=401&after=6'), [7]);

  const summaries = (await http.get('/_mock/requests?summary=true&after=5')).body.items;
  assert.equal(
    summaries.map((e: Json) => Object.keys(e).sort()),
    [
      ['at', 'duration_ms', 'id', 'method', 'operation', 'path', 'principal', 'status'],
      ['at', 'duration_ms', 'id', 'method', 'operation', 'path', 'status'],
    ],
  );
  const full = mock.control.requests({ after: 5 });
  // Whose it was: the owner's credentials on the first; none on the second (no principal, no X-Test-Name).
  const whose = [{ principal: DEMO.principals.owner }, {}];
  assert.equal(
    summaries,
    full.map(({ id, at, method, path, status, duration_ms, operation }, i) => ({ id, at, method, path, status, duration_ms, operation, ...whose[i] })),
  );
  assert.equal(summaries[1], { ...summaries[1], id: 7, method: 'GET', path: `/api/v3/projects/${P}/jobs`, status: 401, operation: 'listJobs', at: DEMO.now });
  // In process, the same filters.
  assert.equal(mock.control.requests({ summary: true, after: 5 }), summaries);
  assert.equal(
    mock.control.requests({ limit: 1 }).map((e) => e.id),
    [7],
  );

  // Ids never repeat: after clearing, a poller that passes its last id sees only what came since.
  await http.delete('/_mock/requests');
  await http.get(`/api/v3/projects/${P}/users`).set(owner);
  assert.equal(await ids('?after=7'), [8]);
  assert.equal(await ids('?after=100'), []);

  const bad = await http.get('/_mock/requests?after=-1&limit=0&summary=maybe');
  assert.is(bad.status, 422);
  assert.equal(
    bad.body.detail.map((i: Json) => [i.loc.join('.'), i.type]),
    [
      ['query.after', 'greater_than_equal'],
      ['query.limit', 'greater_than_equal'],
      ['query.summary', 'bool_parsing'],
    ],
  );
  assert.is((await http.get('/_mock/requests?limit=1001')).body.detail[0].type, 'less_than_equal');
});

test('journal: a summary names the fault that answered', async () => {
  const { mock, http } = await freshMock();
  const fault = mock.control.addFault({ method: 'GET', path: '/api/v3/**', status: 503, times: 1 });
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  const [e] = (await http.get('/_mock/requests?summary=true')).body.items;
  assert.equal(e.fault, { id: fault.id, status: 503 });
  assert.is(e.status, 503);
});

test('GET /_mock/requests/{request_id}: one entry in full, redacted; 404 once gone; 422 for a non-id', async () => {
  const { mock, http } = await freshMock({ journal: { entries: 2 } });
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel?x=1`).set(owner).send({ reason: 'stop' });
  const res = await http.get('/_mock/requests/1');
  assert.is(res.status, 200);
  assert.equal(res.body, JSON.parse(JSON.stringify(mock.control.requests()[0])));
  assert.is(res.body.request.headers.authorization, '[redacted]');
  assert.equal(res.body.request.body, { reason: 'stop' });
  assert.equal(res.body.query, { x: '1' });
  assert.is(res.body.response.body.status, 'cancelled');
  assert.equal(mock.control.journalEntry(1), mock.control.requests()[0]);

  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  // Only the newest 2 are held: #1 has left.
  const gone = await http.get('/_mock/requests/1');
  assert.equal([gone.status, gone.body.detail.reason_code, gone.body.detail.affected_resource], [404, 'request_not_found', 'request:1']);
  assert.is((await http.get('/_mock/requests/3')).body.id, 3);
  assert.is((await http.get('/_mock/requests/4')).status, 404);
  const bad = await http.get('/_mock/requests/abc');
  assert.equal([bad.status, bad.body.detail[0].loc, bad.body.detail[0].type], [422, ['path', 'request_id'], 'int_parsing']);
  assert.is((await http.get('/_mock/requests/0')).status, 422);
  try {
    mock.control.journalEntry(1);
    assert.unreachable('journalEntry found a dropped entry');
  } catch (err) {
    assert.is((err as { reason_code: string }).reason_code, 'request_not_found');
  }
});

test('the journal records API requests, not the documentation pages: /docs, its assets and /openapi.json', async () => {
  const { mock } = await freshMock();
  // Plain supertest: the document-checking client knows only the paths as the document spells them.
  const http = request(mock.callback());
  for (const path of ['/docs', '/docs/', '/DOCS', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/nope.js', '/openapi.json', '/OpenAPI.json'])
    await http.get(path);
  assert.equal(mock.control.requests(), []);
  await http.get(`/api/v3/projects/${P}/users`).set(owner);
  await http.get('/docsx');
  await http.get('/openapi.jsonx');
  assert.equal(
    mock.control.requests().map((e: Json) => [e.method, e.path]),
    [
      ['GET', `/api/v3/projects/${P}/users`],
      ['GET', '/docsx'],
      ['GET', '/openapi.jsonx'],
    ],
  );
});

test('cli --version (and -v) prints the package version and exits 0', async () => {
  const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
  for (const flag of ['--version', '-v']) {
    const out = await runCliToExit([flag]);
    assert.equal([out.code, out.stdout, out.stderr], [0, `${version}\n`, ''], flag);
  }
});

test('the CLI prints the inspector URL on the line under "listening on" (and none with --no-control)', async () => {
  const lines = (args: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      const proc = spawn(process.execPath, [CLI, '--memory', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const timer = setTimeout(() => (proc.kill('SIGKILL'), reject(new Error(`no output: ${out}`))), 30_000);
      proc.stdout.on('data', (c) => {
        out += c;
        // Both lines come in one tick of the listen callback; wait a moment for a line that should not be there.
        if (/listening on .*\n/.test(out)) setTimeout(() => proc.kill('SIGTERM'), 300);
      });
      proc.on('exit', () => (clearTimeout(timer), resolve(out.split('\n').filter(Boolean))));
    });
  const on = await lines([]);
  assert.is(on.length, 2, on.join('|'));
  const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(on[0]);
  assert.ok(m, on[0]);
  assert.is(on[1], `inspector: ${m![1]}/_mock/ui`);
  const off = await lines(['--no-control']);
  assert.is(off.length, 1, off.join('|'));
  assert.match(off[0], /^listening on http:\/\/127\.0\.0\.1:\d+$/);
});

test.run();
