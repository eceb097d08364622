// The package as its users install it: packed, installed into a project outside the repository, type-checked under
// strict TypeScript 5.9 and 7 (skipLibCheck on and off), and the recipes for vitest, jest, node:test and uvu run from
// the tarball, on this Node and (node:test, uvu, jest) on the oldest Node the engines field names; so do the CommonJS
// ones (a plain require() script, jest's default babel-jest setup, ts-jest), through the package's CommonJS build.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { CJS_RECIPE, OLDEST_NODE, ROOT, SANDBOX_RECIPE, TS_JEST_RECIPE, makeScratch, run, typecheck, type Run } from '../helpers/consumer/scratch.js';
import { installedTree, satisfies } from '../helpers/consumer/engines.js';
import { CONTROL_METHODS } from '../helpers/control-methods.js';

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
  // The pinned list (control-surface.test.ts checks it against a live mock), the one internal method aside.
  const methods = Object.keys(CONTROL_METHODS).filter((m) => m !== 'startFirstSession');
  assert.ok(methods.length >= 30, `${methods.length} methods read`);
  const usage = readFileSync(join(dir, 'api.ts'), 'utf8');
  assert.equal(
    methods.filter((m) => !new RegExp(`\\bc\\.${m}\\b`).test(usage)),
    [],
    'methods test/helpers/consumer/project/api.ts does not call',
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
// The CommonJS declarations (.d.cts, reached through the `require` condition) as the ts-jest recipe's tsconfig reads
// them, library files included: an ES-module-only type import there would be an error only this shows.
checks.push({
  name: 'the ts-jest recipe (CommonJS, module node16) with skipLibCheck false',
  run: await timed(
    'tsc ts-jest recipe',
    run(process.execPath, [bin('typescript', 'bin/tsc'), '-p', join(TS_JEST_RECIPE, 'tsconfig.json'), '--skipLibCheck', 'false'], dir),
  ),
});
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

/** What `require('project-runtime-mock')` gives a script: a mock built, one answer from mock.fetch. */
const REQUIRE_SCRIPT = `const { createApp, demoFixture } = require('project-runtime-mock');
const { createClient } = require('project-runtime-mock/client');
createApp({ storage: 'memory', fixtures: demoFixture() })
  .then((mock) => mock.fetch('/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/runs/59cfeed3-439a-4dab-a2ba-fa30f52df113', { headers: { authorization: 'Bearer demo-owner-token' } }))
  .then(async (res) => console.log(JSON.stringify({ status: res.status, id: (await res.json()).id, client: typeof createClient })));`;

// CommonJS from the tarball, on this Node and on the oldest one named (require() of an ES module arrives only in 20.19).
for (const [version, node] of nodes) {
  test(`consumer: require('project-runtime-mock') builds a mock that answers mock.fetch on Node ${version}`, async () => {
    if (typeof node !== 'string') return assert.unreachable(`no Node ${version} binary: ${node.missing}`);
    const r = await timed(`require on ${version}`, run(node, ['-e', REQUIRE_SCRIPT], join(dir, CJS_RECIPE)));
    assert.is(r.code, 0, r.out);
    assert.equal(JSON.parse(r.out), { status: 200, id: '59cfeed3-439a-4dab-a2ba-fa30f52df113', client: 'function' });
    const recipe = await run(node, ['first-mock.js'], join(dir, CJS_RECIPE));
    assert.is(recipe.code, 0, recipe.out);
    assert.is(recipe.out, '200 59cfeed3-439a-4dab-a2ba-fa30f52df113 failed\n');
  });

  test(`consumer: the CommonJS jest recipe passes with jest's default setup (babel-jest, no configuration) on Node ${version}`, async () => {
    if (typeof node !== 'string') return assert.unreachable(`no Node ${version} binary: ${node.missing}`);
    const r = await timed(`jest CommonJS on ${version}`, run(node, [bin('jest', 'bin/jest.js')], join(dir, CJS_RECIPE)));
    assert.is(r.code, 0, r.out);
    assert.match(r.out, /PASS \.\/mock\.test\.js/);
    assert.match(r.out, /Tests:\s+3 passed, 3 total/);
  });

  test(`consumer: the ts-jest recipe passes in CommonJS mode on Node ${version}`, async () => {
    if (typeof node !== 'string') return assert.unreachable(`no Node ${version} binary: ${node.missing}`);
    const r = await timed(`ts-jest on ${version}`, run(node, [bin('jest', 'bin/jest.js')], join(dir, TS_JEST_RECIPE)));
    assert.is(r.code, 0, r.out);
    assert.match(r.out, /PASS \.\/mock\.test\.ts/);
    assert.match(r.out, /Tests:\s+2 passed, 2 total/);
  });
}

/** `require('project-runtime-mock/testcontainers')` beside testcontainers: its class, built on the one testcontainers copy. */
const TESTCONTAINERS_SCRIPT = `const { GenericContainer } = require('testcontainers');
const { RuntimeMockContainer, RUNTIME_MOCK_IMAGE, RUNTIME_MOCK_PORT } = require('project-runtime-mock/testcontainers');
const container = new RuntimeMockContainer().withControlToken('t').withAllowedHosts('mock');
console.log(JSON.stringify({ generic: container instanceof GenericContainer, image: RUNTIME_MOCK_IMAGE, port: RUNTIME_MOCK_PORT, start: typeof container.start }));`;

for (const [version, node] of nodes) {
  test(`consumer: require('project-runtime-mock/testcontainers') gives RuntimeMockContainer on testcontainers on Node ${version}`, async () => {
    if (typeof node !== 'string') return assert.unreachable(`no Node ${version} binary: ${node.missing}`);
    const r = await timed(`require testcontainers on ${version}`, run(node, ['-e', TESTCONTAINERS_SCRIPT], scratch.peerDir));
    assert.is(r.code, 0, r.out);
    const { version: ours } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(JSON.parse(r.out), { generic: true, image: `localhost/project-runtime-mock:${ours}`, port: 4010, start: 'function' });
  });

  test(`consumer: require('project-runtime-mock/testcontainers') without testcontainers installed names it on Node ${version}`, async () => {
    if (typeof node !== 'string') return assert.unreachable(`no Node ${version} binary: ${node.missing}`);
    const r = await run(node, ['-e', "require('project-runtime-mock/testcontainers')"], join(dir, CJS_RECIPE));
    assert.is(r.code, 1, r.out);
    assert.match(
      r.out,
      'Error: project-runtime-mock/testcontainers needs the testcontainers package, an optional peer dependency of project-runtime-mock: install it beside it (npm install --save-dev testcontainers)',
    );
    // The main entry does not need it.
    assert.is((await run(node, ['-e', "require('project-runtime-mock')"], join(dir, CJS_RECIPE))).code, 0);
  });
}

// The CommonJS declarations of the subpath, as TypeScript reads them for a .cts file (module node16) beside testcontainers.
test('consumer: the CommonJS declarations of project-runtime-mock/testcontainers type-check', async () => {
  const file = join(scratch.peerDir, 'check.cts');
  writeFileSync(
    file,
    `import { RuntimeMockContainer, type StartedRuntimeMockContainer } from 'project-runtime-mock/testcontainers';
export async function started(): Promise<string> {
  const mock: StartedRuntimeMockContainer = await new RuntimeMockContainer().withControlToken('t').withAllowedHosts('mock').start();
  const client = mock.client({ token: 'demo-owner-token' });
  return \`\${mock.baseUrl} \${typeof client.control.health}\`;
}
`,
  );
  const r = await timed(
    'tsc testcontainers .cts',
    run(
      process.execPath,
      [
        bin('typescript', 'bin/tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'node16',
        '--moduleResolution',
        'node16',
        '--target',
        'ES2022',
        '--skipLibCheck',
        file,
      ],
      scratch.peerDir,
    ),
  );
  assert.is(r.out.trim(), '', 'no diagnostics');
  assert.is(r.code, 0);
});

test.after(() => console.log(`consumer (${dir}): ${timings.join(', ')}`));

test.run();
