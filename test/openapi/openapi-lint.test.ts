// The served /openapi.json passes Redocly (`@redocly/cli lint`, recommended rules) and Spectral (`spectral:oas`)
// with no error and no warning, with the control surface on (with and without a control token) and off.
// Both run offline: Redocly's telemetry is off (redocly.yaml and env) and Spectral resolves only local $refs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import spectralCore from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import spectralParsers from '@stoplight/spectral-parsers';
import { freshMock } from '../helpers/app.js';
import { buildOpenApi } from '../../src/document/build.js';

const { Spectral, Document } = spectralCore;
const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));

/** The documents as a client downloads them, by variant. */
async function served(): Promise<Record<string, string>> {
  const variants: Record<string, Parameters<typeof freshMock>[0]> = {
    control: { control: true },
    'control-token': { control: true, controlToken: 'lint-token' },
    'no-control': { control: false },
  };
  const out: Record<string, string> = {};
  for (const [name, options] of Object.entries(variants)) {
    const { http } = await freshMock(options);
    const res = await http.get('/openapi.json');
    assert.is(res.status, 200);
    out[name] = res.text;
  }
  // The token makes every /_mock route require it: a different document.
  assert.is.not(out.control, out['control-token']);
  return out;
}

interface Problem {
  rule: string;
  severity: string;
  where: string;
  message: string;
}

/** `redocly lint --format=json`, spawned like a user runs it, with the repository's redocly.yaml. */
function redocly(file: string): Problem[] {
  const cli = require.resolve('@redocly/cli/bin/cli.js');
  const run = spawnSync(process.execPath, [cli, 'lint', file, '--format=json', '--config', join(root, 'redocly.yaml')], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const start = run.stdout.indexOf('{');
  assert.ok(start >= 0, `redocly printed no JSON report (exit ${run.status}): ${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(run.stdout.slice(start)) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
  return report.problems.map((p) => ({ rule: p.ruleId, severity: p.severity, where: p.location[0]?.pointer ?? '', message: p.message }));
}

/** Spectral with the `spectral:oas` ruleset (its recommended rules), through spectral-core as the CLI does. */
async function spectral(text: string, source: string): Promise<Problem[]> {
  const s = new Spectral();
  s.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await s.run(new Document(text, spectralParsers.Json, source));
  const severity = ['error', 'warn', 'info', 'hint'];
  return results.map((r) => ({ rule: String(r.code), severity: severity[r.severity], where: r.path.join('.'), message: r.message }));
}

const show = (problems: Problem[]) => problems.map((p) => `${p.severity} ${p.rule} at ${p.where}: ${p.message}`).join('\n');

test('Redocly: 0 errors, 0 warnings on every variant of the served document', async () => {
  for (const [name, text] of Object.entries(await served())) {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, text);
    const problems = redocly(file);
    assert.equal(problems, [], `${name}:\n${show(problems)}`);
  }
});

test('Spectral (spectral:oas): 0 errors, 0 warnings on every variant of the served document', async () => {
  for (const [name, text] of Object.entries(await served())) {
    const problems = (await spectral(text, `${name}.json`)).filter((p) => p.severity === 'error' || p.severity === 'warn');
    assert.equal(problems, [], `${name}:\n${show(problems)}`);
  }
});

test('both linters do report a defect (so a clean run means something)', async () => {
  const doc = buildOpenApi({ control: false }) as Record<string, any>;
  const broken = structuredClone(doc);
  delete broken.info.license;
  delete broken.info.contact;
  delete broken.paths['/api/v3/projects/{project_id}/jobs'].get.description;
  delete broken.paths['/api/v3/projects/{project_id}/jobs'].get.responses['404'];
  delete broken.paths['/api/v3/projects/{project_id}/jobs'].get.responses['401'];
  delete broken.paths['/api/v3/projects/{project_id}/jobs'].get.responses['403'];
  delete broken.paths['/api/v3/projects/{project_id}/jobs'].get.responses['422'];
  broken.components.schemas.Unused = { type: 'string' };
  const file = join(dir, 'broken.json');
  writeFileSync(file, JSON.stringify(broken));
  const r = redocly(file).map((p) => p.rule);
  for (const rule of ['info-license', 'operation-4xx-response', 'no-unused-components']) assert.ok(r.includes(rule), `redocly reports ${rule}: ${r}`);
  const s = (await spectral(JSON.stringify(broken), 'broken.json')).map((p) => p.rule);
  for (const rule of ['info-contact', 'operation-description', 'oas3-unused-component']) assert.ok(s.includes(rule), `spectral reports ${rule}: ${s}`);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
