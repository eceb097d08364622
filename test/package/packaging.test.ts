// Runtime dependencies are exactly what src/ imports at run time or what the published types need; the CLI bundle's externals are among them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_EXTERNALS } from '../../scripts/bundle-externals.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const dependencies = Object.keys(pkg.dependencies);
/** The browser page is bundled into dist/inspector/page.js at build time: its imports are build-time ones. */
const BUNDLED_PAGE = join(ROOT, 'src', 'inspector', 'page');

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const isBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec);

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === BUNDLED_PAGE ? [] : files(path, ext);
    return ext.test(name) ? [path] : [];
  });
}

/** Packages src/ loads at run time: static imports that are not type-only, dynamic imports, require() and require.resolve(). */
function runtimeImports(): Set<string> {
  const out = new Set<string>();
  for (const file of files(join(ROOT, 'src'), /\.ts$/)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)) if (!m[1]) out.add(m[2]);
    for (const m of text.matchAll(/^\s*import\s+'([^']+)'/gm)) out.add(m[1]);
    for (const m of text.matchAll(/(?:import|require|resolve|\))\(\s*'([^']+)'\s*\)/g)) out.add(m[1]);
  }
  return new Set([...out].filter((s) => !s.startsWith('.') && !isBuiltin(s)).map(packageOf));
}

/** Packages the published declaration files reach from the package's entry points (dist/index.d.ts, dist/client/index.d.ts). */
function publishedTypeImports(): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec.replace(/\.js$/, '.d.ts')));
      else if (!isBuiltin(spec)) out.add(packageOf(spec));
    }
  };
  walk(join(ROOT, 'dist', 'index.d.ts'));
  walk(join(ROOT, 'dist', 'client', 'index.d.ts'));
  return out;
}

/** Declarations beside the package's entry file (index.mjs -> index.d.mts), as TypeScript finds them without a `types` field. */
function declaresBeside(p: string, own: Record<string, unknown>): boolean {
  const dot = (own.exports as Record<string, Record<string, unknown>> | undefined)?.['.'];
  const entries = [own.module, own.main, dot?.import, dot?.default].filter((e): e is string => typeof e === 'string');
  return entries.some((e) => {
    try {
      return statSync(join(ROOT, 'node_modules', p, e.replace(/\.([mc]?)js$/, '.d.$1ts'))).isFile();
    } catch {
      return false;
    }
  });
}

test('dependencies: every package src/ imports at run time is a runtime dependency, or an optional peer its subpath needs', () => {
  const optionalPeers = Object.keys(pkg.peerDependencies ?? {}).filter((p) => pkg.peerDependenciesMeta?.[p]?.optional === true);
  assert.equal(optionalPeers, ['testcontainers']);
  const missing = [...runtimeImports()].filter((p) => !dependencies.includes(p) && !optionalPeers.includes(p));
  assert.equal(missing, []);
  // An optional peer is imported only by its own subpath's files, never by what `.` or `./client` load.
  for (const file of files(join(ROOT, 'src'), /\.ts$/))
    if (/from 'testcontainers'/.test(readFileSync(file, 'utf8'))) assert.ok(file.includes(`${sep}src${sep}testcontainers${sep}`), file);
});

test('dependencies: every runtime dependency is imported by src/ at run time or needed by the published types (itself or its @types)', () => {
  const runtime = runtimeImports();
  const types = publishedTypeImports();
  const typesNeed = (dep: string) => types.has(dep) || (dep.startsWith('@types/') && types.has(dep.slice('@types/'.length)));
  assert.equal(
    dependencies.filter((d) => !runtime.has(d) && !typesNeed(d)),
    [],
  );
  // Each package the published types reach is a dependency: itself when it ships its types, else its @types package.
  for (const p of types) {
    let own: Record<string, unknown> | null;
    try {
      own = JSON.parse(readFileSync(join(ROOT, 'node_modules', p, 'package.json'), 'utf8')) as Record<string, unknown>;
    } catch {
      own = null; // a types-only name (har-format): only @types/har-format exists
    }
    const shipsTypes = own !== null && (Boolean(own.types ?? own.typings) || JSON.stringify(own.exports ?? {}).includes('types') || declaresBeside(p, own));
    const needed = shipsTypes ? p : `@types/${p}`;
    assert.ok(dependencies.includes(needed), `the published types import ${p}: ${needed} is a dependency`);
  }
  for (const gone of ['koa-body', 'jsonc-parser']) assert.not.ok(dependencies.includes(gone), `${gone} is not a runtime dependency`);
  assert.ok('koa-body' in pkg.devDependencies, 'the bench baseline still has koa-body');
});

test('dependencies: the CLI bundle marks as external only runtime dependencies that src/ loads', () => {
  const externals = CLI_EXTERNALS;
  assert.ok(externals.length > 0);
  const runtime = runtimeImports();
  assert.equal(
    externals.filter((e) => !dependencies.includes(e) || !runtime.has(e)),
    [],
  );
});

test('source maps: every map of the package embeds the text of each source it names (ESM, CommonJS, the CLI)', () => {
  const maps = files(join(ROOT, 'dist'), /\.(c?js)\.map$/);
  const entries = ['index.js.map', 'index.cjs.map', 'client/index.js.map', 'client/index.cjs.map', 'cli.js.map', 'app.js.map'].map((f) =>
    join(ROOT, 'dist', f),
  );
  for (const e of entries) assert.ok(maps.includes(e), `${e} is built`);
  for (const file of maps) {
    const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
    assert.ok(map.sources.length > 0, file);
    const missing = map.sources.filter((_, i) => typeof map.sourcesContent?.[i] !== 'string');
    assert.equal(missing, [], `${file}: sources without their text`);
  }
  // The bundles' own sources are found in them by name, and a built file points at its map.
  const cjs = JSON.parse(readFileSync(join(ROOT, 'dist', 'index.cjs.map'), 'utf8')) as { sources: string[]; sourcesContent: string[] };
  const at = cjs.sources.findIndex((s) => s.endsWith('src/app.ts'));
  assert.ok(at >= 0, 'src/app.ts is a source of the CommonJS bundle');
  assert.is(cjs.sourcesContent[at], readFileSync(join(ROOT, 'src', 'app.ts'), 'utf8'));
  for (const f of ['index.js', 'index.cjs', 'client/index.cjs'])
    assert.match(readFileSync(join(ROOT, 'dist', f), 'utf8'), /\n\/\/# sourceMappingURL=\S+\.map\n?$/, f);
});

test('the shipped client, ES module and CommonJS, imports and requires nothing from node: (it runs in browsers too)', () => {
  const loads = /\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']|\brequire\s*\(\s*["']([^"']+)["']/g;
  for (const f of ['client/index.js', 'client/index.cjs']) {
    const text = readFileSync(join(ROOT, 'dist', f), 'utf8');
    const specs = [...text.matchAll(loads)].map((m) => m[1] ?? m[2] ?? m[3]);
    assert.equal(specs.filter(isBuiltin), [], `${f} loads a Node built-in`);
  }
});

test.run();
