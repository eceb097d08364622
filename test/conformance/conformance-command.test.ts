// `project-runtime-mock conformance`: against a second mock from the same fixture (0 differences, writes included, and
// only the disposable project changed), usage errors and exit codes, the three report forms, and no secret in any output.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformanceCommand } from '../../src/conformance-command.js';
import { demoFixture } from '../../src/fixtures.js';
import { runConformance } from '../../src/conformance/index.js';
import { driftingTarget, onGet } from '../helpers/drifting-target.js';
import { DEMO } from '../helpers/demo.js';
import { CLI, ROOT } from '../helpers/cli.js';

const P = DEMO.projects.support;
const SECRETS = [DEMO.tokens.owner, DEMO.adminKey];

function streams() {
  const text = { out: '', err: '' };
  return { text, out: { write: (s: string) => ((text.out += s), true) }, err: { write: (s: string) => ((text.err += s), true) } };
}

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const r = { status: null as number | null, stdout: '', stderr: '' };
  proc.stdout.on('data', (c) => (r.stdout += c));
  proc.stderr.on('data', (c) => (r.stderr += c));
  return new Promise((resolve) => proc.on('close', (code) => resolve({ ...r, status: code })));
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** XML 1.0 well-formedness for what JUnit writers produce: one root, nested tags, quoted attributes, escaped text. */
function assertWellFormed(xml: string): void {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  let at = 0;
  for (const m of body.matchAll(/<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:-]+="[^"<&]*(?:&(?:amp|lt|gt|quot|apos);[^"<&]*)*")*)\s*(\/?)>/g)) {
    const text = body.slice(at, m.index);
    assert.not.match(text, /<|&(?!(amp|lt|gt|quot|apos);)/, `bad text before ${m[0]}`);
    at = m.index! + m[0].length;
    if (m[1]) assert.is(stack.pop(), m[2], `closing ${m[2]}`);
    else if (!m[4]) {
      if (stack.length === 0) roots++;
      stack.push(m[2]);
    } else if (stack.length === 0) roots++;
  }
  assert.is(body.slice(at).trim(), '');
  assert.equal(stack, []);
  assert.is(roots, 1);
}

test('a second mock from the same fixture: 0 differences over the whole catalogue, writes included; only the disposable project changed', async () => {
  const target = await driftingTarget(null);
  const before = target.upstream.store.toData() as unknown as Record<string, { project_id?: string; id?: string }[]>;
  try {
    const report = await runConformance({
      target: target.url,
      token: DEMO.tokens.owner,
      adminKey: DEMO.adminKey,
      project: DEMO.projects.sales,
      disposableProject: P,
      write: true,
      fixtures: demoFixture(),
    });
    assert.is(report.summary.differences, 0, JSON.stringify(report.results.filter((r) => r.outcome === 'different')));
    assert.is(report.summary.different, 0);
    assert.is(report.summary.compatible, 0);
    assert.is(report.summary.probes, report.results.length);
    assert.is(report.summary.same + report.summary.not_comparable, report.summary.probes);
    const writes = report.results.filter((r) => r.group === 'write');
    assert.equal(
      writes.map((w) => [w.operation, w.outcome, w.statuses?.target]),
      [
        ['setBudget', 'same', 200],
        ['denyApproval', 'same', 200],
        ['cancelRun', 'same', 200],
      ],
    );
    for (const group of ['auth', 'malformed', 'random-id', 'order', 'read', 'diff', 'walk'])
      assert.ok(
        report.results.some((r) => r.group === group && r.outcome === 'same'),
        group,
      );
    // The writes changed the disposable project and nothing of any other project.
    const after = target.upstream.store.toData() as unknown as typeof before;
    for (const table of ['approvals', 'runs', 'projects', 'users', 'jobs', 'releases'] as const) {
      const rows = (d: typeof before) => JSON.stringify((d[table] ?? []).filter((r) => (r.project_id ?? r.id) !== P));
      assert.is(rows(after), rows(before), table);
    }
    const denied = (d: typeof before) => (d.approvals ?? []).filter((a) => a.project_id === P && (a as { status?: string }).status === 'denied').length;
    assert.is(denied(after), denied(before) + 1);
  } finally {
    await target.close();
  }
});

test('exit codes: 0 when the target agrees, 1 on a difference, 2 on bad usage or an unreachable target', async () => {
  const agreeing = await driftingTarget(null);
  const drifting = await driftingTarget('changed reason code');
  try {
    const args = (url: string) => ['--target', url, '--token', DEMO.tokens.owner, '--project', P];
    let s = streams();
    assert.is(await conformanceCommand(args(agreeing.url), s.out, s.err), 0, s.text.err);
    assert.match(
      s.text.out,
      /^conformance: \d+ probes against http:\/\/127\.0\.0\.1:\d+: \d+ same, 0 different \(0 distinct differences, 0 warnings\), \d+ not comparable, 0 compatible extras; no differences\n$/,
    );
    s = streams();
    assert.is(await conformanceCommand([...args(agreeing.url), '--write', '--disposable-project', P], s.out, s.err), 0, s.text.err);
    assert.match(
      s.text.out,
      new RegExp(`^writes on the disposable project ${P}:\n {2}will: PUT the budget[^\n]*\n {2}will: deny [^\n]*\n {2}will: cancel [^\n]*\nconformance: `),
    );
    s = streams();
    assert.is(await conformanceCommand(args(drifting.url), s.out, s.err), 1);
    assert.match(
      s.text.out,
      /different {2}listJobs: random project id {2}\(GET \/api\/v3\/projects\/[0-9a-f-]+\/jobs\)\n {11}body\.detail\.reason_code: mock "project_not_found", target "project_missing"\n/,
    );
    assert.match(s.text.out, /1 different \(1 distinct differences, 0 warnings\)/);
  } finally {
    await agreeing.close();
    await drifting.close();
  }
  const port = await closedPort();
  for (const [args, message] of [
    [['--write', '--target', 'http://127.0.0.1:1'], /--write runs only on --disposable-project/],
    [['--target', 'http://127.0.0.1:1', '--write', '--project', P], /--write runs only on --disposable-project/],
    [[], /--target is required/],
    [['--target', 'ftp://example.com'], /--target must be an http/],
    [['--target', `http://127.0.0.1:${port}`, '--token', 'tok-secret-1'], /cannot reach http:\/\/127\.0\.0\.1:\d+/],
    [['--target', 'http://127.0.0.1:1', '--tokn', 'tok-secret-2'], /Unknown option '--tokn'/],
  ] as const) {
    const s = streams();
    assert.is(await conformanceCommand([...args], s.out, s.err), 2, args.join(' '));
    assert.match(s.text.err, message);
    assert.not.match(s.text.err + s.text.out, /tok-secret/);
  }
});

test('--dry-run lists every probe and what each write will do, and sends nothing', async () => {
  const s = streams();
  const port = await closedPort();
  assert.is(await conformanceCommand(['--target', `http://127.0.0.1:${port}`, '--write', '--disposable-project', P, '--dry-run'], s.out, s.err), 0);
  assert.match(s.text.out, /write {6}setBudget: set to its current values\n {11}will: PUT the budget of the disposable project/);
  assert.match(s.text.out, /will: deny the first pending approval/);
  assert.match(s.text.out, /will: cancel the first cancellable run/);
  assert.match(s.text.out, /conformance: dry run, \d+ probes listed \(3 writes\), nothing sent to/);
});

test('the JSON, JUnit and Markdown reports; no token or key in any output, even when the target echoes one', async () => {
  // A target that echoes the bearer token back in an extra field of every run detail.
  const target = await driftingTarget(onGet(/\/runs\/[^/]+$/, 200, 'getRun', (a) => (a.body.echo = `you sent ${DEMO.tokens.owner} and ${DEMO.adminKey}`)));
  const dir = mkdtempSync(join(tmpdir(), 'conformance-'));
  try {
    const s = streams();
    const files = { json: join(dir, 'r.json'), junit: join(dir, 'r.xml'), markdown: join(dir, 'r.md') };
    const args = ['--target', target.url, '--token', DEMO.tokens.owner, '--admin-key', DEMO.adminKey, '--project', P];
    assert.is(await conformanceCommand([...args, '--json', files.json, '--junit', files.junit, '--markdown', files.markdown], s.out, s.err), 0);
    const json = JSON.parse(readFileSync(files.json, 'utf8'));
    assert.equal(Object.keys(json), ['target', 'summary', 'writes', 'findings', 'results']);
    assert.equal(Object.keys(json.summary), ['probes', 'same', 'different', 'not_comparable', 'differences', 'warnings', 'compatible']);
    assert.is(json.summary.compatible, 1);
    const echo = json.results.find((r: { compatible: unknown[] }) => r.compatible.length);
    assert.equal(echo.compatible, [{ field: 'body.echo', mock: 'absent', target: 'you sent [redacted] and [redacted]' }]);
    for (const r of json.results) assert.ok(['same', 'different', 'not comparable'].includes(r.outcome));
    const xml = readFileSync(files.junit, 'utf8');
    assertWellFormed(xml);
    assert.match(
      xml,
      new RegExp(`<testsuite name="project-runtime-mock conformance" tests="${json.summary.probes}" failures="0" skipped="${json.summary.not_comparable}">`),
    );
    assert.is((xml.match(/<testcase /g) ?? []).length, json.summary.probes);
    const md = readFileSync(files.markdown, 'utf8');
    assert.match(md, /^## Conformance: no differences\n/);
    assert.match(md, /### Compatible \(extra fields the contract allows\)\n\n- getRun: one run: `body\.echo` = "you sent \[redacted\] and \[redacted\]"/);
    for (const text of [s.text.out, s.text.err, JSON.stringify(json), xml, md]) for (const secret of SECRETS) assert.not.ok(text.includes(secret), secret);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.close();
  }
});

test('JUnit: a difference is a failure with its fields, escaped; the built CLI runs the subcommand', async () => {
  const target = await driftingTarget(onGet(/\/jobs$/, 404, 'listJobs', (a) => (a.body.detail.reason_code = 'gone<&>"')));
  const dir = mkdtempSync(join(tmpdir(), 'conformance-'));
  try {
    const junit = join(dir, 'r.xml');
    // Spawned, not spawnSync: the target answers from this process.
    const r = await run([CLI, 'conformance', '--target', target.url, '--token', DEMO.tokens.owner, '--junit', junit]);
    assert.is(r.status, 1, r.stderr);
    const xml = readFileSync(junit, 'utf8');
    assertWellFormed(xml);
    assert.match(xml, /failures="1"/);
    assert.match(xml, /<failure message="body\.detail\.reason_code: mock &quot;project_not_found&quot;, target &quot;gone&lt;&amp;&gt;\\&quot;&quot;">/);
    assert.not.ok((r.stdout + r.stderr).includes(DEMO.tokens.owner));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.close();
  }
});

test.run();
