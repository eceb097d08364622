// The property suites (every test file that draws cases with fast-check) once more per seed: fixed seeds that once
// found a defect, then fresh random ones, so a seed that fails shows as a failure with the seed to replay it.
// `node test/property-seeds.mjs [fresh-count]` (default 2); .ci/run runs it after `npm test`, which drew one seed of its own.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Seeds that once found a defect: each stays in the list, so the defect it found cannot come back unseen. */
const FIXED_SEEDS = [1438185846];

const fresh = Number(process.argv[2] ?? 2);
if (!Number.isSafeInteger(fresh) || fresh < 0) {
  process.stdout.write(`fresh seed count ${process.argv[2]}: expected a whole number\n`);
  process.exit(1);
}
const here = fileURLToPath(new URL('.', import.meta.url));
/** Every suite under test/ (its path relative to test/), folders included. */
const walk = (rel) =>
  readdirSync(join(here, rel), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules' ? walk(join(rel, e.name)) : e.name.endsWith('.test.ts') ? [join(rel, e.name)] : [],
  );
const suites = walk('')
  .filter((f) => /from 'fast-check'/.test(readFileSync(join(here, f), 'utf8')))
  .sort();
const pattern = `^(${suites.map((f) => f.replace(/\./g, '\\.')).join('|')})$`;
const seeds = [...FIXED_SEEDS, ...Array.from({ length: fresh }, () => (Math.random() * 2 ** 31) | 0)];

/** One run of the property suites with `seed`; resolves with its closing "N passed, N failed" line and exit code. */
function runWith(seed) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['test/run.mjs', pattern], {
      cwd: root,
      env: { ...process.env, PROPERTY_SEED: String(seed) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('close', (code) => resolve({ code, out, summary: out.trim().split('\n').at(-1) ?? '' }));
  });
}

const failed = [];
for (const [i, seed] of seeds.entries()) {
  process.stdout.write(`property seeds: ${i + 1}/${seeds.length}, PROPERTY_SEED=${seed}, ${suites.length} suites ... `);
  const r = await runWith(seed);
  process.stdout.write(`${r.summary}\n`);
  if (r.code !== 0) {
    process.stdout.write(r.out);
    failed.push(seed);
  }
}
const replay = failed.map((s) => `PROPERTY_SEED=${s} node test/run.mjs '${pattern}'`).join('\n  ');
process.stdout.write(
  `\nproperty seeds: ${seeds.length - failed.length} of ${seeds.length} seeds passed over ${suites.length} suites${failed.length ? `; failed, replay with:\n  ${replay}` : ''}\n`,
);
process.exit(failed.length ? 1 : 0);
