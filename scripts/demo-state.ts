// Build step: the demo fixture's compiled state, precomputed into dist/demo-state.json beside the bundles, so a fresh
// process's first createApp with demoFixture() (every test file's, in vitest and jest) skips validating and compiling
// it. Keyed by the hash of fixtures/demo.json: a changed demo is validated as usual until the next build.
import { deepStrictEqual } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_STATE_FILE, demoFixture, demoSource, stateFromFixture } from '../src/fixtures.js';

const started = performance.now();
const state = stateFromFixture(demoFixture());
// The state must survive JSON exactly (no undefined, no non-JSON value), or the precomputed one would differ.
deepStrictEqual(JSON.parse(JSON.stringify(state)), state);
const out = fileURLToPath(new URL(`../dist/${DEMO_STATE_FILE}`, import.meta.url));
const text = JSON.stringify({ source: demoSource(), state });
writeFileSync(out, text);
console.log(
  `demo state: ${Object.values(state)
    .filter(Array.isArray)
    .reduce(
      (n, c) => n + c.length,
      0,
    )} records -> dist/${DEMO_STATE_FILE} (${Math.round(text.length / 1024)} KiB, ${Math.round(performance.now() - started)} ms)`,
);
