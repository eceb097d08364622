// Split bundles: esbuild's ES module split of an entry, and its chunk files (dist/<entry>-<name>-<hash>.js or .cjs,
// beside the entry file). A build removes the previous build's chunks first, so dist/ holds only those the entry imports.
import { build } from 'esbuild';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { lazyMime } from './lazy-mime.js';
import { LAZY_FUNCTIONS, lazyFunction } from './lazy-function.js';
import { lazyRequire } from './lazy-require.js';

/** A chunk's file name (with its source map): <entry>-<name>-<hash> and the extension. */
const isChunk = (file: string, entry: string, ext: '.js' | '.cjs') => new RegExp(`^${entry}-[\\w-]+-[A-Z0-9]{8}\\${ext}(\\.map)?$`).test(file);

/** Removes the chunks of entry file `entry` (its name without extension) with extension `ext` from `dir`. */
export function removeChunks(dir: string, entry: string, ext: '.js' | '.cjs'): void {
  for (const file of readdirSync(dir)) if (isChunk(file, entry, ext)) rmSync(join(dir, file));
}

/**
 * A chunk of esbuild's own helpers only (shared by the others) maps to no source of ours: its map would name none, or
 * only the scratch file of a two-pass build, so it is removed and the chunk no longer points at it.
 */
export function unmapHelperChunks(dir: string, entry: string, ext: '.js' | '.cjs'): void {
  for (const file of readdirSync(dir)) {
    if (!isChunk(file, entry, ext) || file.endsWith('.map')) continue;
    const map = join(dir, `${file}.map`);
    if (!existsSync(map)) continue;
    const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
    if (sources.some((s) => existsSync(resolve(dirname(map), s)))) continue;
    rmSync(map);
    const chunk = join(dir, file);
    writeFileSync(chunk, readFileSync(chunk, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\.map\n?$/, '\n'));
  }
}

/**
 * Bundles `source` into `dir`/`entry`.js as split ES modules: the chunks (`entry`-<name>-<hash>.js, beside it, so paths a
 * chunk finds from its own URL are the entry's) load by import() at first use; the previous build's chunks are removed.
 */
export async function splitEsm(source: string, dir: string, entry: string, external: string[]): Promise<void> {
  removeChunks(dir, entry, '.js');
  await build({
    entryPoints: { [entry]: source },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Without the indentation and line breaks V8 has a quarter fewer bytes to scan at every cold import (names are
    // kept, so a stack trace still names each function; the source maps beside the files give the lines back).
    minifyWhitespace: true,
    external,
    // Bundled CommonJS modules call require: give each ES module file one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    sourcemap: true,
    logLevel: 'warning',
    outdir: dir,
    chunkNames: `${entry}-[name]-[hash]`,
    plugins: [lazyMime(), lazyFunction(LAZY_FUNCTIONS), lazyRequire(true)],
  });
  unmapHelperChunks(dir, entry, '.js');
}
