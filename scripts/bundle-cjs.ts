// Build step: the CommonJS build, for `require()` on every Node the engines field names (require of an ES module
// arrives only in Node 20.19). Its entry points are read from package.json's exports, so a subpath is declared once:
// every export with a `require` condition `./dist/X.cjs` is bundled from src/X.ts, with its types `./dist/X.d.cts`
// copied from the ESM declarations tsc wrote (dist/X.d.ts and every local file it reaches, specifiers `.js` -> `.cjs`).
import { build, type BuildOptions } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyMime } from './lazy-mime.js';
import { LAZY_FUNCTIONS, lazyFunction } from './lazy-function.js';
import { lazyRequire } from './lazy-require.js';
import { BUNDLE_EXTERNALS } from './bundle-externals.js';
import { peerRequire } from './peer-require.js';
import { splitCjs } from './cjs-chunks.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string; import?: string; require?: string | { types?: string; default?: string } }>;
  peerDependencies?: Record<string, string>;
};

export interface CjsEntry {
  subpath: string;
  /** src/X.ts */
  source: string;
  /** dist/X.cjs */
  outfile: string;
  /** dist/X.d.ts, the ESM declarations the CommonJS ones are copied from */
  esmTypes: string;
  /** dist/X.d.cts */
  types: string;
}

/** The CommonJS entry points package.json's exports declare: `{ require: { types: './dist/X.d.cts', default: './dist/X.cjs' } }`. */
export function cjsEntries(): CjsEntry[] {
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    if (typeof target === 'string' || target.require === undefined) return [];
    const req = target.require;
    if (typeof req === 'string' || !req.default?.endsWith('.cjs') || !req.types?.endsWith('.d.cts'))
      throw new Error(`package.json exports["${subpath}"].require must be { types: "./dist/X.d.cts", default: "./dist/X.cjs" }`);
    const stem = req.default.replace(/^\.\/dist\//, '').replace(/\.cjs$/, '');
    return [
      {
        subpath,
        source: join(ROOT, 'src', `${stem}.ts`),
        outfile: join(ROOT, req.default),
        esmTypes: join(ROOT, 'dist', `${stem}.d.ts`),
        types: join(ROOT, req.types),
      },
    ];
  });
}

/** A package with no CommonJS entry: its types are read as an ES module's, which a CommonJS declaration must say. */
function esmOnly(name: string): boolean {
  const file = join(ROOT, 'node_modules', name, 'package.json');
  // A name with no package of its own is a types-only one (@types/<name>): declarations, no module kind.
  if (!existsSync(file)) return false;
  const meta = JSON.parse(readFileSync(file, 'utf8')) as { type?: string; exports?: unknown };
  return meta.type === 'module' && !JSON.stringify(meta.exports ?? {}).includes('"require"');
}

/** `import type … from 'pkg'` of an ES-module-only package gets `resolution-mode: import` (else TS1541 under node16). */
const typeImportsOfEsm = (text: string) =>
  text.replace(/^((?:import|export) type \{[^}]*\} from '((?:@[^/']+\/)?[^./'][^/']*)[^']*')(;)$/gm, (m, head: string, name: string, end: string) =>
    esmOnly(name) ? `${head} with { 'resolution-mode': 'import' }${end}` : m,
  );

/** Writes X.d.cts beside every declaration file `entry` reaches, with relative specifiers pointing at the .cjs names. */
function copyDeclarations(entry: string, written: Set<string>): void {
  const walk = (file: string) => {
    if (written.has(file)) return;
    written.add(file);
    const text = readFileSync(file, 'utf8');
    const out = text.replace(/((?:from\s+|import\(\s*)['"])(\.{1,2}\/[^'"]+)\.js(['"])/g, (_m, head: string, spec: string, tail: string) => {
      walk(resolve(dirname(file), `${spec}.d.ts`));
      return `${head}${spec}.cjs${tail}`;
    });
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), typeImportsOfEsm(out).replace(/\/\/# sourceMappingURL=.*$/m, ''));
  };
  walk(entry);
}

// import.meta.url means the bundle's own file: fixtures, the demo state and the inspector page are found beside it.
const META_URL = 'const __import_meta_url = require("node:url").pathToFileURL(__filename).href;';

const written = new Set<string>();
for (const e of cjsEntries()) {
  mkdirSync(dirname(e.outfile), { recursive: true });
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    // Peer dependencies stay outside too, through peerRequire: a missing one is named in the error.
    external: BUNDLE_EXTERNALS,
    banner: { js: META_URL },
    define: { 'import.meta.url': '__import_meta_url' },
    sourcemap: true,
    sourcesContent: true,
    logLevel: 'warning',
    plugins: [
      lazyMime(),
      lazyFunction(LAZY_FUNCTIONS),
      lazyRequire(true),
      peerRequire(Object.keys(pkg.peerDependencies ?? {}), `project-runtime-mock${e.subpath.slice(1)}`),
    ],
  };
  // The package's main entry is split as its ES module build is (what a first mock does not use loads at first use).
  if (e.subpath === '.') await splitCjs(e.source, e.outfile, common);
  else {
    // An entry that never reads import.meta.url (the client) gets no banner, so it requires nothing from node:.
    const plain = { ...common, entryPoints: [e.source], format: 'cjs' as const, outfile: e.outfile, banner: undefined };
    await build(plain);
    if (readFileSync(e.outfile, 'utf8').includes('__import_meta_url')) await build({ ...plain, banner: common.banner });
  }
  copyDeclarations(e.esmTypes, written);
}
