// The bundles' chunk files (dist/<entry>-<name>-<hash>.js or .cjs, beside their entry file): a build removes the
// previous build's first, so dist/ holds only the chunks the current entry files import.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** A chunk's file name (with its source map): <entry>-<name>-<hash> and the extension. */
const isChunk = (file: string, entry: string, ext: '.js' | '.cjs') => new RegExp(`^${entry}-[\\w-]+-[A-Z0-9]{8}\\${ext}(\\.map)?$`).test(file);

/** Removes the chunks of entry file `entry` (its name without extension) with extension `ext` from `dir`. */
export function removeChunks(dir: string, entry: string, ext: '.js' | '.cjs'): void {
  for (const file of readdirSync(dir)) if (isChunk(file, entry, ext)) rmSync(join(dir, file));
}
