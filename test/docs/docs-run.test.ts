// Every shell block with a `curl` in the README and docs/ runs, in page order, against a fresh server per page (the
// built CLI on a free port: `--memory`, the demo fixture, its clock frozen), and its shown output is compared. The
// conventions (docs/testing.md, "Docs that run"): `$M` and `http://127.0.0.1:4010` are the server, `$P` the demo's
// Support Desk project; a line `# {…}` or `# -> {…}` right after a command is its output as JSON, where a string
// "…" stands for any value (a volatile field: an id, a token) and text after the JSON is commentary; a ```json block
// right after a block is its last command's output (`{...}` and `[...]` elide a value, `, ...}` more keys); a block after
// `<!-- not run: REASON -->` is skipped. A request answered 4xx or 5xx fails the block unless its output is shown.
// A page is one shell session (variables carry from block to block); after `| jq -r ...` the comment lines are its text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';

interface Command {
  lines: string[];
  /** The shown output (the JSON text after `# ` or `# -> `), if any. */
  shown?: string;
  /** The shown output is text, line by line (a command ending in `| jq -r ...`). */
  raw?: boolean;
}
interface Block {
  line: number;
  skip?: string;
  commands: Command[];
}

export const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const SHELL = new Set(['sh', 'bash', 'shell']);
const SHOWN = /^#\s*(?:->\s*)?([[{].*)$/;

/** The shell blocks of a page that hold a curl, each split into commands and their shown outputs. */
export function curlBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    const body = lines.slice(i + 1, end);
    if (SHELL.has(open[1]) && body.some((l) => /\bcurl\s/.test(l))) {
      let before = i - 1;
      while (before >= 0 && lines[before].trim() === '') before--;
      const marker = before >= 0 ? /^<!--\s*not run:\s*(.*?)\s*-->$/.exec(lines[before].trim()) : null;
      const commands = commandsOf(body);
      // A ```json block right after it is the output of its last command.
      let next = end + 1;
      while (next < lines.length && lines[next].trim() === '') next++;
      if (/^```json\s*$/.test(lines[next] ?? '') && commands.length > 0 && commands.at(-1)!.shown === undefined) {
        let close = next + 1;
        while (close < lines.length && !/^```\s*$/.test(lines[close])) close++;
        commands.at(-1)!.shown = lines.slice(next + 1, close).join('\n');
        end = close;
      }
      blocks.push({ line: i + 1, skip: marker ? marker[1] || '(no reason given)' : undefined, commands });
    }
    i = end;
  }
  return blocks;
}

function commandsOf(body: string[]): Command[] {
  const commands: Command[] = [];
  let current: Command | undefined;
  let continued = false;
  let quote = '';
  let collecting = false;
  for (const line of body) {
    const shown = SHOWN.exec(line.trim());
    const comment = !continued && line.trim().startsWith('#');
    if (comment && collecting && current) {
      current.shown += `\n${line.trim().replace(/^#\s?/, '')}`;
      continue;
    }
    collecting = false;
    // A command that prints (not `X=$(...)`) through `jq -r`: the comment lines after it are its text output.
    const prints = current && !/^\s*\w+=/.test(current.lines[0]) && /\|\s*jq\s+-r\b[^|]*$/.test(current.lines.join(' '));
    if (comment && current && current.shown === undefined && prints) {
      Object.assign(current, { shown: line.trim().replace(/^#\s?/, ''), raw: true });
      collecting = true;
      continue;
    }
    if (!continued && shown && current && current.shown === undefined) {
      current.shown = shown[1];
      continue;
    }
    if (!continued && (line.trim() === '' || line.trim().startsWith('#'))) {
      current = undefined;
      continue;
    }
    if (continued && current) current.lines.push(line);
    else commands.push((current = { lines: [line] }));
    quote = quoteAfter(line, quote);
    continued = quote !== '' || /\\\s*$/.test(line);
  }
  return commands;
}

/** The quote still open at the end of a line (`'`, `"` or none), given the one open at its start. */
function quoteAfter(line: string, open: string): string {
  let quote = open;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = '';
    } else if (c === '\\') i++;
    else if (quote === '"') {
      if (c === '"') quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) break; // a comment to the end of the line
  }
  return quote;
}

/** The JSON at the start of a shown output (the rest is commentary); `{...}` and `[...]` stand for any value, a last `, ...}` for more keys. */
function leadingJson(shownText: string): unknown {
  const text = shownText.replace(/\{\.\.\.\}|\[\.\.\.\]/g, '"…"').replace(/,\s*\.\.\.\s*\}/g, ', "...": "…"}');
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return JSON.parse(text.slice(0, i + 1));
  }
  throw new Error(`shown output is not JSON: ${text}`);
}

/** Differences between what a page shows and what came back ("…" matches anything); [] when they agree. */
export function differences(shown: unknown, actual: unknown, at = '$'): string[] {
  if (shown === '…') return [];
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual) || actual.length !== shown.length) return [`${at}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
    return shown.flatMap((s, i) => differences(s, actual[i], `${at}[${i}]`));
  }
  if (shown && typeof shown === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: shown an object, got ${JSON.stringify(actual)}`];
    // `"...": "…"` (a page's `, ...}`): the object has more keys than shown.
    const open = '...' in shown;
    const keys = [...new Set([...Object.keys(shown), ...Object.keys(actual)])].filter((k) => k !== '...');
    return keys.flatMap((k) => {
      if (!(k in shown) && open) return [];
      if (!(k in shown)) return [`${at}.${k}: not shown, but answered ${JSON.stringify((actual as Record<string, unknown>)[k])}`];
      if (!(k in actual)) return [`${at}.${k}: shown, but not answered`];
      return differences((shown as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], `${at}.${k}`);
    });
  }
  return shown === actual ? [] : [`${at}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
}

/** A page's blocks as one bash script (a page is one shell session): each command with a shown output writes it to its own file. */
function script(blocks: Block[], url: string, outDir: string): string {
  const parts = [
    'set -e -o pipefail',
    `M=${url}`,
    `P=${DEMO.projects.support}`,
    // A refused request fails the block, unless the page shows what it answers.
    'curl() { command curl --fail-with-body "$@"; }',
  ];
  blocks.forEach((block, b) => {
    parts.push(`echo "@@block ${block.line}" >&2`);
    block.commands.forEach((c, i) => {
      const text = c.lines.join('\n').replaceAll('http://127.0.0.1:4010', url);
      if (c.shown === undefined) parts.push(text);
      else parts.push(`curl() { command curl "$@"; }`, `{ ${text}\n} > ${outDir}/${b}-${i}.out`, `curl() { command curl --fail-with-body "$@"; }`);
    });
  });
  return `${parts.join('\n')}\n`;
}

for (const page of PAGES) {
  const blocks = curlBlocks(readFileSync(join(ROOT, page), 'utf8'));
  if (blocks.length === 0) continue;
  test(`${page}: every curl block runs against a fresh server, and shows what it answers`, async () => {
    const cli = await startCli(['--port', '0', '--memory'], 30_000);
    const dir = mkdtempSync(join(tmpdir(), 'prm-docs-run-'));
    // Blocks name repository files (`@fixtures/demo.json`) and write their own (state.json) in the working directory.
    symlinkSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'));
    try {
      const runnable = blocks.filter((b) => !b.skip);
      const run = spawnSync('bash', ['-c', script(runnable, cli.url, dir)], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      const failedAt = [...run.stderr.matchAll(/@@block (\d+)/g)].at(-1)?.[1];
      assert.is(run.status, 0, `${page}:${failedAt} failed (exit ${run.status}): ${run.stderr.replace(/@@block \d+\n/g, '')}${run.stdout.slice(-2000)}`);
      runnable.forEach((block, b) => {
        const where = `${page}:${block.line}`;
        block.commands.forEach((c, i) => {
          if (c.shown === undefined) return;
          const out = readFileSync(join(dir, `${b}-${i}.out`), 'utf8');
          if (c.raw) {
            const shownLines = c.shown.split('\n');
            const got = out.trimEnd().split('\n');
            assert.ok(
              got.length === shownLines.length && shownLines.every((l, k) => l === '…' || l === got[k]),
              `${where}: command ${i + 1} printed ${JSON.stringify(got)}, shown ${JSON.stringify(shownLines)}`,
            );
            return;
          }
          let actual: unknown;
          try {
            actual = JSON.parse(out);
          } catch {
            assert.unreachable(`${where}: command ${i + 1} printed no JSON: ${out.slice(0, 500)}`);
          }
          assert.equal(differences(leadingJson(c.shown), actual), [], `${where}: command ${i + 1} answers other than shown`);
        });
      });
    } finally {
      await cli.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('the conventions: commands and shown outputs are told apart; "…" matches anything; every key counts', () => {
  const [block] = curlBlocks(
    ['```sh', '# a comment', 'X=$(curl -s $M/a | jq -r .id)', 'curl -s $M/b \\', '  -d "{}"', '# -> {"a":"…","b":[1]}   (again: 2)', '```'].join('\n'),
  );
  assert.equal(block.commands, [
    { lines: ['X=$(curl -s $M/a | jq -r .id)'] },
    { lines: ['curl -s $M/b \\', '  -d "{}"'], shown: '{"a":"…","b":[1]}   (again: 2)' },
  ]);
  assert.equal(leadingJson('{"a":"}"} (x)'), { a: '}' });
  assert.equal(differences({ a: '…', b: [1] }, { a: 'x7', b: [1] }), []);
  assert.equal(differences({ a: 1 }, { a: 1, b: 2 }), ['$.b: not shown, but answered 2']);
  assert.equal(differences({ a: [1] }, { a: [2] }), ['$.a[0]: shown 1, got 2']);
  const [text] = curlBlocks(['```sh', 'curl -s $M/a | jq -r .status', '# cancelled', '# …', 'X=$(curl -s $M/b | jq -r .id)', '# a comment', '```'].join('\n'));
  assert.equal(text.commands, [{ lines: ['curl -s $M/a | jq -r .status'], shown: 'cancelled\n…', raw: true }, { lines: ['X=$(curl -s $M/b | jq -r .id)'] }]);
  const skipped = curlBlocks(['<!-- not run: needs a second host -->', '', '```sh', 'curl -s http://mock:4010/x', '```'].join('\n'));
  assert.is(skipped[0].skip, 'needs a second host');
});

test.run();
