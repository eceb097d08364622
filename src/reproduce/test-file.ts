// The text of an exported test file (node:test or vitest): the session's steps, its starting bundle, and the loop that replays and asserts them.
import type { ReplayStep } from './replay-steps.js';

export type TestFormat = 'node-test' | 'vitest';

/** What the file says of itself, and how it builds its mock. */
export interface TestFileHead {
  format: TestFormat;
  /** The session's first and last request ids, and the first one asserted. */
  first: number;
  last: number;
  since: number;
  /** Field names compared by shape only: a name, or `*suffix`. */
  shapeOnly: string[];
  /** createApp options the session's answers depend on besides the bundle. */
  options: Record<string, unknown>;
}

const IMPORTS: Record<TestFormat, string> = {
  'node-test': "import { after, before, describe, test } from 'node:test';",
  vitest: "import { afterAll as after, beforeAll as before, describe, test } from 'vitest';",
};

/** The runtime part of every exported file: no data, so it reads the same in each. */
const REPLAY = `
const HANG_GIVE_UP_MS = 50;
const shapeOnly = (key) => SHAPE_ONLY.some((p) => (p.startsWith('*') ? key.endsWith(p.slice(1)) : key === p));
const DATETIME = /^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?(Z|[+-]\\d\\d:?\\d\\d)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const shapeOf = (v) => (typeof v !== 'string' ? typeof v : DATETIME.test(v) ? 'datetime' : UUID.test(v) ? 'uuid' : 'string');

/** The answer with each shape-only value that has the recorded value's shape replaced by the recorded value. */
function shaped(actual, expected, depth = 0) {
  if (depth > 64 || !actual || !expected || typeof actual !== 'object' || typeof expected !== 'object') return actual;
  if (Array.isArray(actual)) return Array.isArray(expected) ? actual.map((x, i) => shaped(x, expected[i], depth + 1)) : actual;
  const out = {};
  for (const [k, v] of Object.entries(actual)) {
    const keep = typeof v === 'string' && k in expected && shapeOnly(k) && shapeOf(v) === shapeOf(expected[k]);
    out[k] = keep ? expected[k] : shaped(v, expected[k], depth + 1);
  }
  return out;
}

let mock;

const newest = () => mock.control.requests({ limit: 1 })[0];

/** Sends one step as it was sent (its sealed parts opened by the mock that holds the seal) and answers its journal entry. */
async function replay(step) {
  if (step.at !== undefined && mock.control.now() !== step.at) await mock.control.setClock(step.at);
  const { url, headers, body } = mock.control.unseal({ url: step.url, headers: step.headers, body: step.body });
  // A request a hang fault held is given up after a moment, as its client gave up; the mock journals it once it sees it go.
  // (AbortSignal.timeout's timer would not keep the test's event loop alive while the mock waits.)
  const giveUp = step.hang ? new AbortController() : undefined;
  if (giveUp) setTimeout(() => giveUp.abort(), HANG_GIVE_UP_MS);
  const res = await mock.fetch(url, { method: step.method, headers, body: body ?? undefined, signal: giveUp?.signal }).catch(() => undefined);
  await res?.arrayBuffer().catch(() => undefined);
  for (let i = 0; step.hang && !(newest()?.id >= step.id) && i < 200; i++) await new Promise((r) => setTimeout(r, 5));
  return newest();
}

describe(TITLE, () => {
  before(async () => {
    // The key its credentials were sealed with is not in this file: it comes from the environment (PRM_SEAL_KEY).
    mock = await createApp({ storage: 'memory', bundle: BUNDLE, ...OPTIONS, sealKey: process.env.PRM_SEAL_KEY }).catch((err) => {
      throw new Error(err.items ? err.items.map((i) => i.msg).join('; ') : err.message);
    });
    for (const step of STEPS) if (!step.assert) await replay(step);
  });
  after(() => mock?.close());

  for (const step of STEPS.filter((s) => s.assert)) {
    test(\`request \${step.id}: \${step.name} answered \${step.status}\`, async () => {
      const entry = await replay(step);
      assert.ok(entry && entry.id === step.id, \`request \${step.id} was not journaled by the replay\`);
      assert.equal(entry.status, step.status, \`request \${step.id} (\${step.name}): status\`);
      assert.deepEqual(shaped(entry.response.body, step.response), step.response, \`request \${step.id} (\${step.name}): body\`);
    });
  }
});
`;

/**
 * The file, chunk by chunk: its head, the steps one per line, the runtime loop, then the bundle (streamed, as
 * GET /_mock/bundle streams one). No chunk holds a secret: the steps' credentials and the bundle's are sealed.
 */
export async function* testFileChunks(head: TestFileHead, steps: ReplayStep[], bundle: AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  const asserted =
    head.since > head.first ? `requests ${head.since}..${head.last} asserted, ${head.first}..${head.since - 1} replayed first` : 'every request asserted';
  const range = steps.length > 0 ? `requests ${head.first}..${head.last} (${asserted})` : 'a session without requests';
  let out = [
    `// Replays ${range} of a project-runtime-mock session and asserts each recorded status and body.`,
    '// Exported by GET /_mock/requests/export; see the package docs, docs/debugging.md (local replay). No secret is written here:',
    '// credentials are sealed, and only a mock given the key they were sealed with (PRM_SEAL_KEY=... in the environment) opens them.',
    IMPORTS[head.format],
    "import assert from 'node:assert/strict';",
    "import { createApp } from 'project-runtime-mock';",
    '',
    `const TITLE = ${JSON.stringify(`replay of ${range}`)};`,
    '/** Compared by shape only (the same kind of value): values that cannot repeat in another run. */',
    `const SHAPE_ONLY = ${JSON.stringify(head.shapeOnly)};`,
    `const OPTIONS = ${JSON.stringify(head.options)};`,
    'const STEPS = [',
    '',
  ].join('\n');
  for (const s of steps) {
    out += `  ${JSON.stringify(s)},\n`;
    if (out.length >= 256 * 1024) {
      yield out;
      out = '';
    }
  }
  yield `${out}];\n${REPLAY}\n/** The mock at the session's start (GET /_mock/bundle's document; secrets, tokens and codes sealed). */\nconst BUNDLE = `;
  for await (const chunk of bundle) yield String(chunk);
  yield ';\n';
}
