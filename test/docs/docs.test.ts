// The README and docs/ stay in step with the code: every reason code, state value and CLI flag is documented, and every link resolves.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REASON_CODES } from '../../src/reason-codes.js';
import { PYDANTIC_ERRORS, PYDANTIC_ERROR_TYPES } from '../../src/validation.js';
import { RunStatus, StepStatus } from '../../src/schemas/runs.js';
import { ApprovalStatus } from '../../src/schemas/approvals.js';
import { runCliToExit } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');
const readme = read('README.md');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('README is a front page of at most 300 lines', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines <= 300, `README.md has ${lines} lines`);
});

test('docs/errors.md: every reason code has a row with its status', () => {
  const errors = read('docs/errors.md');
  for (const [code, spec] of Object.entries(REASON_CODES)) {
    assert.ok(errors.includes(`| \`${code}\` | ${spec.status} |`), `${code} (${spec.status}) missing from the reason-code table`);
  }
});

test('docs/errors.md: every pydantic error type has a row with its exact message template', () => {
  const errors = read('docs/errors.md');
  for (const type of PYDANTIC_ERROR_TYPES) {
    assert.ok(errors.includes(`| \`${type}\` | ${PYDANTIC_ERRORS[type].template} |`), `${type} missing from the validation-item table`);
  }
  assert.ok(errors.includes('pydantic 2.12') && read('docs/decisions.md').includes('pydantic 2.12'), 'the pydantic version reproduced is named');
});

test('docs/states.md: every run, step and approval status is in the states table', () => {
  const states = read('docs/states.md');
  for (const value of [...RunStatus.options, ...StepStatus.options, ...ApprovalStatus.options]) {
    assert.ok(states.includes(`\`${value}\``), value);
  }
});

test('README: every CLI flag of --help is documented', async () => {
  const { stdout } = await runCliToExit(['--help']);
  const flags = [...stdout.matchAll(/--[a-z-]+/g)].map((m) => m[0]);
  assert.ok(flags.length >= 10);
  for (const flag of flags) assert.ok(readme.includes(flag), flag);
});

/** GitHub's heading anchors: lower case, punctuation dropped (but `-` and `_`), spaces to `-`. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (m)
      out.add(
        m[1]
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replace(/ /g, '-'),
      );
  }
  return out;
}

test('every relative link in README.md and docs/ names a file (and heading) that exists', () => {
  let checked = 0;
  for (const page of pages) {
    const text = read(page).replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue; // http(s), mailto
      const [file, anchor] = target.split('#');
      const path = file ? resolve(dirname(join(root, page)), file) : join(root, page);
      assert.ok(existsSync(path), `${page}: link to missing ${target}`);
      if (anchor && path.endsWith('.md')) assert.ok(anchors(readFileSync(path, 'utf8')).has(anchor), `${page}: link to missing heading ${target}`);
      checked++;
    }
  }
  assert.ok(checked >= 15, `only ${checked} links checked`);
});

test('README and docs: no section placeholder is left', () => {
  for (const page of pages) assert.not.match(read(page), /<!-- section:/, page);
});

test('docs/README.md: an "I want to …" index of about 30 tasks, each linked to a section, reaching every page; the README links it', () => {
  const index = read('docs/README.md');
  const rows = index.split('\n').filter((l) => /^\| [a-z]/.test(l) && !l.startsWith('| I want to'));
  assert.ok(rows.length >= 30, `${rows.length} tasks`);
  for (const row of rows) assert.match(row, /\]\([\w./-]+\.md(#[\w-]+)?\)/, row);
  const linked = new Set([...index.matchAll(/\]\(([\w-]+\.md)/g)].map((m) => m[1]));
  const pages = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  assert.equal(
    pages.filter((p) => !linked.has(p)),
    [],
    'pages the index does not reach',
  );
  assert.ok(readme.includes('](docs/README.md)'), 'the README links the index');
});

test('docs: every long page says what it is for on its first screen', () => {
  for (const page of pages.filter((p) => p.startsWith('docs/'))) {
    const lines = read(page).split('\n');
    if (lines.length < 150) continue;
    assert.ok(
      lines.slice(0, 8).some((l) => l.startsWith('**What this page is for:**')),
      `${page} (${lines.length} lines) does not say what it is for in its first lines`,
    );
  }
});

test.run();
