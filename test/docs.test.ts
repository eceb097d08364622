// The README stays in step with the code: every reason code, state value and CLI flag is documented.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { REASON_CODES } from '../src/reason-codes.js';
import { RunStatus, StepStatus } from '../src/schemas/runs.js';
import { ApprovalStatus } from '../src/schemas/approvals.js';
import { runCliToExit } from './helpers/cli.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('README: every reason code has a row with its status', () => {
  for (const [code, spec] of Object.entries(REASON_CODES)) {
    assert.ok(readme.includes(`| \`${code}\` | ${spec.status} |`), `${code} (${spec.status}) missing from the reason-code table`);
  }
});

test('README: every run, step and approval status is in the states table', () => {
  for (const value of [...RunStatus.options, ...StepStatus.options, ...ApprovalStatus.options]) {
    assert.ok(readme.includes(`\`${value}\``), value);
  }
});

test('README: every CLI flag of --help is documented', async () => {
  const { stdout } = await runCliToExit(['--help']);
  const flags = [...stdout.matchAll(/--[a-z-]+/g)].map((m) => m[0]);
  assert.ok(flags.length >= 10);
  for (const flag of flags) assert.ok(readme.includes(flag), flag);
});

test('README: no section placeholder is left', () => {
  assert.not.match(readme, /<!-- section:/);
});

test.run();
