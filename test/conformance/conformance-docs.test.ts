// docs/conformance.md stays true: its usage block is the command's, and its example output is what the command prints
// against a target whose unknown-project reason code drifted (the URL and the probe's random id put in fixed).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { CONFORMANCE_USAGE, conformanceCommand } from '../../src/conformance-command.js';
import { driftingTarget } from '../helpers/drifting-target.js';
import { DEMO } from '../helpers/demo.js';

const page = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
const blocks = [...page.matchAll(/^```\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

test('docs/conformance.md: the usage block is the command usage, word for word', () => {
  assert.ok(blocks.includes(`${CONFORMANCE_USAGE}\n`));
});

test('docs/conformance.md: the example output is what the command prints', async () => {
  const shown = /<!-- conformance-output -->\n```\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(shown, 'the marked block');
  const target = await driftingTarget('changed reason code');
  try {
    let out = '';
    const code = await conformanceCommand(
      ['--target', target.url, '--token', DEMO.tokens.owner, '--project', DEMO.projects.support],
      { write: (s: string) => ((out += s), true) },
      { write: () => true },
    );
    assert.is(code, 1);
    const normalized = out
      .split(target.url)
      .join('https://staging.example.com')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '0b7e3c1a-5d2f-4e8b-9a6c-2d1f0e9b8a7c');
    assert.fixture(normalized, shown!);
  } finally {
    await target.close();
  }
});

test.run();
