// Compose, don't inherit: no class of ours extends another class of ours (error classes aside; third-party and
// web-standard bases are fine), checked over src/ with the TypeScript parser, and the checker checked on planted code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ownInheritance, type SourceText } from '../helpers/inheritance.js';

const SRC = new URL('../../src/', import.meta.url).pathname;
/** Read once: every test below looks at the same files. */
const files: SourceText[] = (readdirSync(SRC, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .map((f) => ({ path: `src/${f.split('\\').join('/')}`, text: readFileSync(join(SRC, f), 'utf8') }));

test('no class under src/ extends another class of ours, error classes aside', () => {
  assert.ok(files.length > 200, `${files.length} files read`);
  const found = ownInheritance(files).map((f) => f.replace(/:\d+:/, ':'));
  assert.equal(found, []);
});

test('the check reads third-party, web-standard and error bases as allowed (a sample of src/ that has each)', () => {
  const heritage = (path: string) => files.find((f) => f.path === path)!;
  // A testcontainers base, a web-standard Response, and error classes of ours.
  for (const p of ['src/testcontainers/index.ts', 'src/inprocess/response.ts', 'src/errors.ts', 'src/validation.ts']) {
    assert.equal(ownInheritance([heritage(p), heritage('src/errors.ts')]), [], p);
  }
});

const planted = (path: string, text: string): SourceText => ({ path, text });

test('the checker: a planted subclass of our own class fails, in the same file or imported, as a class expression or a mixin', () => {
  const base = planted('src/a/base.ts', 'export class Base {}\nexport class Later extends Below {}\nclass Below {}\n');
  const user = planted(
    'src/a/user.ts',
    [
      "import { Base } from '../base.js';",
      "import * as parts from '../../a/base.js';",
      'export class Direct extends Base {}',
      'export class Qualified extends parts.Base {}',
      'export const Made = () => class extends Base {};',
      'export class Mixed extends withHooks(Base) {}',
      "import { withHooks } from '../hooks.js';",
    ].join('\n'),
  );
  assert.equal(ownInheritance([base, user]), [
    'src/a/base.ts:2: Later extends Below',
    'src/a/user.ts:3: Direct extends Base',
    'src/a/user.ts:4: Qualified extends parts.Base',
    'src/a/user.ts:5: (anonymous class) extends Base',
    'src/a/user.ts:6: Mixed extends withHooks(Base)',
  ]);
});

test('the checker: errors, chains of our errors, third-party and web-standard bases pass', () => {
  const errors = planted('src/errors.ts', 'export class ApiError extends Error {}\nexport class NotFound extends ApiError {}\n');
  const user = planted(
    'src/b/user.ts',
    [
      "import { NotFound } from '../../errors.js';",
      "import { GenericContainer } from 'testcontainers';",
      'export class Gone extends NotFound {}',
      'export class Container extends GenericContainer {}',
      'export class Answer extends Response {}',
      'export const Made = () => class extends Error {};',
      'export class Plain {}',
    ].join('\n'),
  );
  assert.equal(ownInheritance([errors, user]), []);
});

test('the checker: a class of ours named Error is not an error base, nor is a subclass of a non-error of ours', () => {
  const a = planted('src/c/a.ts', 'class Error {}\nexport class Fake extends Error {}\nexport class Store {}\nexport class Oops extends Store {}\n');
  assert.equal(ownInheritance([a]), ['src/c/a.ts:2: Fake extends Error', 'src/c/a.ts:4: Oops extends Store']);
});

test.run();
