// The file operations the JSON file adapter uses, injectable so tests can fail them (a full or read-only disk); durable helpers on top.
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The part of node's FileHandle the adapter uses (positional writes only). */
export interface Handle {
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  datasync(): Promise<void>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export interface FileSystem {
  open(path: string, flags: string): Promise<Handle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  size(path: string): Promise<number | null>;
  /** Creates a directory and its parents (none of them is an error); optional for injected file systems. */
  mkdir?(path: string): Promise<void>;
}

export const nodeFileSystem: FileSystem = {
  open: (path, flags) => open(path, flags),
  rename,
  unlink,
  mkdir: async (path) => void (await mkdir(path, { recursive: true })),
  size: async (path) => {
    try {
      return (await stat(path)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  },
};

/** Writes all of `bytes` at `position`. */
export async function writeAt(fh: Handle, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await fh.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/** Makes a created, renamed or removed entry of `file`'s directory durable (fsync of the directory). */
export async function syncDirectory(fs: FileSystem, file: string): Promise<void> {
  const dir = await fs.open(dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

export async function removeIfPresent(fs: FileSystem, file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
