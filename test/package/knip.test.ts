// Nothing dead: knip (knip.jsonc names the entries) finds no unused file, export, type or dependency, no unlisted
// dependency or binary and no unresolved import, and its configuration has nothing stale (no hint). Offline, one run.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../..', import.meta.url));
const knip = fileURLToPath(new URL('../../node_modules/knip/bin/knip.js', import.meta.url));

/** One file's findings in knip's JSON report: per issue type, a list of named items (or a map of them). */
type Findings = Record<string, unknown>;

/** Every finding as `file: type name`, one a line. */
function findingLines(report: { issues: (Findings & { file: string })[] }): string[] {
  const lines: string[] = [];
  for (const { file, ...types } of report.issues) {
    for (const [type, items] of Object.entries(types)) {
      const list = Array.isArray(items) ? items : items && typeof items === 'object' ? Object.values(items) : [];
      for (const item of list as { name?: string }[]) lines.push(`${file}: ${type} ${item?.name ?? JSON.stringify(item)}`);
    }
  }
  return lines;
}

test('knip finds nothing unused, unlisted or unresolved, and no configuration hint', () => {
  const run = spawnSync(process.execPath, [knip, '--no-progress', '--reporter', 'json', '--treat-config-hints-as-errors'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const start = run.stdout.indexOf('{');
  assert.ok(start >= 0, `knip printed no JSON report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(run.stdout.slice(start, run.stdout.lastIndexOf('}') + 1)) as { issues: (Findings & { file: string })[] };
  const findings = findingLines(report);
  assert.equal(findings, [], `knip found (remove the export or the code, or name a real entry in knip.jsonc):\n${findings.join('\n')}`);
  assert.is(run.status, 0, `knip exited ${run.status}:\n${run.stderr}`);
});

test.run();
