// The typed client's methods are generated from the operation declarations: regenerating them gives the files as
// checked in, so a declaration that changes without `npm run generate:client` fails here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clientMethodFiles } from '../../scripts/client-methods.js';
import { CONTROL_DECLARATIONS, V3_DECLARATIONS, type Operation } from '../../src/operations/index.js';

test('src/client/v3.ts and control.ts are what the declarations generate', async () => {
  const files = await clientMethodFiles();
  assert.equal(
    files.map((f) => f.path),
    ['src/client/v3.ts', 'src/client/control.ts'],
  );
  for (const { path, text } of files) {
    const checkedIn = readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
    assert.ok(checkedIn === text, `${path} is stale: run npm run generate:client`);
  }
});

test('every declared client method appears once, under its name, calling its own path', async () => {
  const [v3, control] = (await clientMethodFiles()).map((f) => f.text);
  const methods = (text: string) => [...text.matchAll(/^ {4}(\w+): (?:async )?\(/gm)].map((m) => m[1]);
  const named = (ops: readonly Operation[]) => ops.flatMap((op) => [op.client].flat().map((c) => c.name ?? op.operationId));
  assert.equal(methods(v3!), named(V3_DECLARATIONS));
  assert.equal(methods(control!), named(CONTROL_DECLARATIONS));
  assert.is(new Set(named(CONTROL_DECLARATIONS)).size, 53);
  for (const op of [...V3_DECLARATIONS, ...CONTROL_DECLARATIONS]) {
    const text = op.path.startsWith('/_mock') ? control! : v3!;
    assert.ok(text.includes(`api.${op.method.toUpperCase()}('${op.path}'`), `${op.operationId} is called at ${op.path}`);
  }
});

test('a changed declaration changes the generated client', async () => {
  const op = V3_DECLARATIONS[0]!;
  const before = op.client;
  (op as { client: unknown }).client = { ...before, name: 'renamedExchange' };
  try {
    const [v3] = await clientMethodFiles();
    assert.ok(v3!.text.includes('renamedExchange: ('));
    assert.not.ok(v3!.text.includes('exchangeToken: ('));
  } finally {
    (op as { client: unknown }).client = before;
  }
});

test.run();
