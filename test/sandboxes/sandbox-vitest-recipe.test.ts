// The vitest recipe (examples/vitest-sandboxes/) passes as a user runs it: vitest's threads pool, one CLI server started
// by its global setup (the built dist/cli.js), a sandbox per test file from its setup file. Each file does what would
// break another's if they shared a mock (a clock move past an expiry, a cancel, resets, a journal read).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

const DIR = join(ROOT, 'examples/vitest-sandboxes');

function vitest(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', DIR], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('the recipe runs in the threads pool against one server it starts itself', () => {
  const config = readFileSync(join(DIR, 'vitest.config.ts'), 'utf8');
  assert.match(config, "pool: 'threads'");
  assert.match(config, "globalSetup: ['./global-setup.ts']");
  assert.match(config, "setupFiles: ['./setup.ts']");
});

test('vitest threads, one CLI server, a sandbox per file: every file passes, each seeing its own state only', async () => {
  const { code, out } = await vitest();
  assert.is(code, 0, out.slice(-4000));
  for (const file of ['approvals', 'clock', 'runs', 'reset']) assert.match(out, new RegExp(`✓ ${file}\\.test\\.ts`), `${file}.test.ts passed`);
  assert.match(out, /Test Files\s+4 passed \(4\)/);
  assert.match(out, /Tests\s+5 passed \(5\)/);
});

test.run();
