// Build step: the CommonJS package entry (dist/index.cjs) split as the ES module one is, since esbuild splits ES modules
// only: the entry is first bundled as split ES modules into a scratch folder, then every file of that is turned into
// CommonJS, its imports of the other files kept as requires of their .cjs names (an import() becomes a require in a
// promise), so require('project-runtime-mock') loads what a first mock uses and the rest at first use, as import does.
import { build, type BuildOptions } from 'esbuild';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { removeChunks, unmapHelperChunks } from './bundle-chunks.js';

/** Bundles `source` into `outfile` (dist/index.cjs) and its chunks beside it (dist/index-<name>-<hash>.cjs). */
export async function splitCjs(source: string, outfile: string, common: BuildOptions): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'cjs-chunks-'));
  try {
    const stem = basename(outfile, '.cjs');
    await build({
      ...common,
      entryPoints: { [stem]: source },
      splitting: true,
      format: 'esm',
      banner: {},
      define: {},
      outdir: scratch,
      chunkNames: `${stem}-[name]-[hash]`,
    });
    const files = readdirSync(scratch).filter((f) => f.endsWith('.js'));
    removeChunks(dirname(outfile), stem, '.cjs');
    await build({
      ...common,
      entryPoints: files.map((f) => join(scratch, f)),
      outdir: dirname(outfile),
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      // As the ES module split: less for V8 to scan at a cold require (scripts/bundle-chunks.ts).
      minifyWhitespace: true,
      // import() of another file becomes Promise.resolve().then(() => require(...)): loaded at first use still.
      supported: { 'dynamic-import': false },
      // The first pass already reported on the packages' code (esbuild is quiet about node_modules; here it is not).
      logOverride: { 'direct-eval': 'silent' },
      plugins: [
        {
          name: 'cjs-chunks',
          setup(b) {
            // The other files of the split stay files of their own, named .cjs.
            b.onResolve({ filter: /^\.\/[^/]+\.js$/ }, (args) =>
              files.includes(args.path.slice(2)) ? { path: args.path.replace(/\.js$/, '.cjs'), external: true } : undefined,
            );
          },
        },
      ],
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  unmapHelperChunks(dirname(outfile), basename(outfile, '.cjs'), '.cjs');
}
