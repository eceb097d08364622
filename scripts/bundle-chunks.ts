// The bundles' chunk files (dist/<entry>-<name>-<hash>.js or .cjs, beside their entry file): a build removes the
// previous build's first, so dist/ holds only the chunks the current entry files import.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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
