// The package as its users install it: packed, installed into a project outside the repository, type-checked under
// strict TypeScript 5.9 and 7 (skipLibCheck on and off), and the recipes for vitest, jest, node:test and uvu run from
// the tarball, on this Node and (node:test, uvu, jest) on the oldest Node the engines field names.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { OLDEST_NODE, ROOT, SANDBOX_RECIPE, makeScratch, run, typecheck, type Run } from './consumer/scratch.js';
import { installedTree, satisfies } from './consumer/engines.js';

// Packing and installing takes longer than one test may: it runs while the file loads (a failure fails the file).
const scratch = await makeScratch();
const { dir } = scratch;
const bin = (pkg: string, file: string) => join(dir, 'node_modules', pkg, file);
const timings: string[] = [`pack + install ${Math.round(scratch.setupMs)} ms`];
const timed = async (what: string, r: Promise<Run>): Promise<Run> => {
  const done = await r;
  timings.push(`${what} ${Math.round(done.ms)} ms`);
  return done;
};

test('consumer: the engines field is true: every package the tarball pulls in runs on the oldest Node it names', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  assert.is(pkg.engines.node, `>=${OLDEST_NODE}`);
  const tree = installedTree(join(dir, 'node_modules', 'project-runtime-mock'), dir);
  assert.ok(
    tree.some((p) => p.name === 'light-my-request'),
    'the tree is read',
  );
  const tooNew = tree.filter((p) => p.engines?.node !== undefined && !satisfies(OLDEST_NODE, p.engines.node));
  assert.equal(
    tooNew.map((p) => `${p.name}@${p.version} wants node ${p.engines?.node}`),
    [],
  );
});

test('consumer: the engines range check reads the forms packages use', () => {
  const cases: [string, string, boolean][] = [
    ['>=22', '20.0.0', false],
    ['>= 18', '20.0.0', true],
    ['^18 || >=20', '20.0.0', true],
    ['^20.19.0 || >=22.12.0', '20.0.0', false],
    ['^14.21.3 || >=16', '20.0.0', true],
    ['>= 10.x', '20.0.0', true],
    ['20.x', '20.5.1', true],
    ['~20.1.0', '20.0.0', false],
    ['>=0.4', '20.0.0', true],
    ['^18.14.0 || ^20.0.0 || ^22.0.0 || >=24.0.0', '20.0.0', true],
    ['<20', '20.0.0', false],
    ['*', '20.0.0', true],
  ];
  for (const [range, version, expected] of cases) assert.is(satisfies(version, range), expected, `${version} in ${range}`);
});

test('consumer: the type-checked file calls every public method of mock.control', () => {
  const declared = ['control/api.d.ts', 'control/project-reads.d.ts'].flatMap((f) =>
    [...readFileSync(join(dir, 'node_modules/project-runtime-mock/dist', f), 'utf8').matchAll(/^ {4}(?:async )?([a-zA-Z]+)(?:<[^>]*>)?\(/gm)].map((m) => m[1]),
  );
  const methods = [...new Set(declared)].filter((m) => m !== 'constructor');
  assert.ok(methods.length >= 30, `${methods.length} methods read`);
  const usage = readFileSync(join(dir, 'api.ts'), 'utf8');
  assert.equal(
    methods.filter((m) => !new RegExp(`\\bc\\.${m}\\b`).test(usage)),
    [],
    'methods test/consumer/project/api.ts does not call',
  );
});

// The compilers too (TypeScript 5.9 checking every declaration takes a while on a loaded machine): one at a time.
const COMPILERS = [
  ['typescript', 'TypeScript 5.9'],
  ['typescript-7', 'TypeScript 7'],
] as const;
const checks: { name: string; run: Run }[] = [];
for (const [compiler, name] of COMPILERS) {
  for (const skipLibCheck of [true, false])
    checks.push({
      name: `strict ${name} with skipLibCheck ${skipLibCheck}`,
      run: await timed(`${compiler} skipLibCheck=${skipLibCheck}`, typecheck(scratch, compiler, skipLibCheck)),
    });
}
for (const check of checks) {
  test(`consumer: ${check.name} checks every public export`, () => {
    assert.is(check.run.out.trim(), '', 'no diagnostics');
    assert.is(check.run.code, 0);
  });
}

test('consumer: the vitest recipe passes in the threads pool', async () => {
  const r = await timed('vitest', run(process.execPath, [bin('vitest', 'vitest.mjs'), 'run'], dir));
  assert.is(r.code, 0, r.out);
  assert.match(r.out, /Tests\s+2 passed \(2\)/);
});

test('consumer: the sandbox recipe passes from the tarball: vitest threads, the CLI server it starts, a sandbox per file', async () => {
  const r = await timed('vitest sandboxes', run(process.execPath, [bin('vitest', 'vitest.mjs'), 'run', '--root', SANDBOX_RECIPE], dir));
  assert.is(r.code, 0, r.out);
  for (const file of ['approvals', 'clock', 'runs', 'reset']) assert.match(r.out, new RegExp(`✓ ${file}\\.test\\.ts`), `${file}.test.ts passed`);
  assert.match(r.out, /Test Files\s+4 passed \(4\)/);
  assert.match(r.out, /Tests\s+5 passed \(5\)/);
});

test('consumer: the type-checked files include every TypeScript recipe', () => {
  const { files } = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')) as { files: string[] };
  const recipes = readdirSync(join(ROOT, 'examples'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.split(sep).includes('node_modules'))
    .map((f) => f.split(sep).join('/'));
  assert.ok(recipes.length >= 10, `${recipes.length} TypeScript recipes read`);
  assert.equal(
    recipes.filter((f) => !files.includes(f)),
    [],
    'recipes the consumer project does not type-check',
  );
});

test('consumer: the jest recipe passes in jest ESM mode, with no transform', async () => {
  const r = await timed('jest', run(process.execPath, ['--experimental-vm-modules', bin('jest', 'bin/jest.js'), '--config', 'jest.config.json'], dir));
  assert.is(r.code, 0, r.out);
  assert.match(r.out, /Tests:\s+2 passed, 2 total/);
});

/** node:test and uvu (and jest) on this Node, then on the oldest one named. */
const nodes: [string, string | { missing: string }][] = [
  [process.version, process.execPath],
  [`v${OLDEST_NODE}`, scratch.oldestNode],
];
for (const [version, node] of nodes) {
  test(`consumer: the node:test recipe, the README's embedding example and the tutorial pass on Node ${version}`, async () => {
    if (typeof node !== 'string') return assert.unreachable(`no Node ${version} binary: ${node.missing}`);
    const r = await timed(
      `node:test on ${version}`,
      run(node, ['--test', '--test-reporter=tap', 'node-test.test.mjs', 'embedding.test.mjs', 'tutorial.test.mjs'], dir),
    );
    assert.is(r.code, 0, r.out);
    assert.match(r.out, /^# pass 8$/m);
    assert.match(r.out, /^# fail 0$/m);
  });

  test(`consumer: the uvu recipe passes on Node ${version}`, async () => {
    if (typeof node !== 'string') return assert.unreachable(`no Node ${version} binary: ${node.missing}`);
    const r = await timed(`uvu on ${version}`, run(node, ['uvu.test.mjs'], dir));
    assert.is(r.code, 0, r.out);
    assert.match(r.out, /Passed:\s+4/);
  });
}

test(`consumer: the jest recipe passes on Node v${OLDEST_NODE} too`, async () => {
  const node = scratch.oldestNode;
  if (typeof node !== 'string') return assert.unreachable(`no Node ${OLDEST_NODE} binary: ${node.missing}`);
  const r = await timed(`jest on v${OLDEST_NODE}`, run(node, ['--experimental-vm-modules', bin('jest', 'bin/jest.js'), '--config', 'jest.config.json'], dir));
  assert.is(r.code, 0, r.out);
  assert.match(r.out, /Tests:\s+2 passed, 2 total/);
});

test.after(() => console.log(`consumer (${dir}): ${timings.join(', ')}`));

test.run();
