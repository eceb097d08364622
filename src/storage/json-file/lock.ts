// Two processes never write one data file: a lock beside its real path (symlinks resolved) and one on its identity
// (device and inode, so a hard link is the same file); a dead owner's lock is taken over.
import * as nodeFs from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export class LockError extends Error {}

/** The fs calls the lock makes: injectable, so a test can make the disk full or read-only. */
export type LockFs = Pick<
  typeof nodeFs,
  'openSync' | 'writeSync' | 'closeSync' | 'readFileSync' | 'unlinkSync' | 'realpathSync' | 'lstatSync' | 'readlinkSync' | 'statSync' | 'mkdirSync'
>;

/**
 * Where identity locks live: the paths of a hard-linked file share no directory, so the lock named for the file's
 * device and inode is kept in one directory per user under the temp directory.
 */
export function identityLockDir(): string {
  let user: string;
  try {
    user = String(userInfo().uid);
  } catch {
    user = 'user';
  }
  return join(tmpdir(), `project-runtime-mock-locks-${user}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const cause = (err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  // `ENOSPC: no space left on device, write` says it all; a bare message if there is no code.
  return e?.code ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, '')}` : String((err as Error)?.message ?? err);
};

/**
 * The path a data file really lives at: symlinks (of the file, even dangling, and of its directories) resolved,
 * so that `db.json` and a link to it take the same lock and are written in the same place.
 */
export function realDataPath(file: string, fs: LockFs = nodeFs): string {
  let path = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    try {
      return fs.realpathSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new LockError(`refusing data file ${file}: cannot resolve its path (${cause(err)})`);
    }
    let link = false;
    try {
      link = fs.lstatSync(path).isSymbolicLink();
    } catch {
      /* not there at all: a new file */
    }
    if (!link) {
      try {
        return join(fs.realpathSync(dirname(path)), basename(path));
      } catch (err) {
        throw new LockError(`refusing data file ${file}: cannot resolve its directory (${cause(err)})`);
      }
    }
    path = resolve(dirname(path), fs.readlinkSync(path)); // a dangling link: where the file will be created
  }
  throw new LockError(`refusing data file ${file}: too many levels of symbolic links`);
}

/**
 * Takes `${realpath}.lock` and, when the file exists, the lock on its identity (`IdentityLock`); returns a release
 * function for both. Every failure is a LockError naming the lock file and the cause (a full or read-only disk
 * included), and leaves no lock file behind.
 */
export function acquireLock(file: string, fs: LockFs = nodeFs, identityDir = identityLockDir()): () => void {
  const releasePath = acquirePathLock(file, fs);
  const identity = new IdentityLock(file, fs, identityDir);
  try {
    identity.take();
  } catch (err) {
    releasePath();
    throw err;
  }
  return () => {
    identity.release();
    releasePath();
  };
}

/** Takes `${realpath}.lock` only (the CLI keeps the identity lock itself, to move it as the file is replaced). */
export function acquirePathLock(file: string, fs: LockFs = nodeFs): () => void {
  return takeLockFile(file, `${realDataPath(file, fs)}.lock`, fs);
}

/**
 * The lock on a file's identity, `${dev}-${ino}.lock` in `identityDir`, so a second server started on a hard link to
 * a file in use is refused as one on the same path is. A snapshot renamed over the file gives it a new identity:
 * `take()` again moves the lock there and lets go of the old one. A file that does not exist yet has no identity
 * (and no link): nothing to lock until it is written.
 */
export class IdentityLock {
  #key: string | null = null;
  #release: () => void = () => {};

  constructor(
    private readonly file: string,
    private readonly fs: LockFs = nodeFs,
    private readonly dir = identityLockDir(),
  ) {}

  /** Locks the file's current identity (a LockError when another process holds it); nothing to do when it is unchanged. */
  take(): void {
    let id: { dev: bigint; ino: bigint };
    try {
      id = this.fs.statSync(this.file, { bigint: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new LockError(`refusing data file ${this.file}: cannot read its identity (${cause(err)})`);
    }
    const key = `${id.dev}-${id.ino}`;
    if (key === this.#key) return;
    try {
      this.fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new LockError(`cannot create the lock directory ${this.dir}: ${cause(err)}`);
    }
    const release = takeLockFile(this.file, join(this.dir, `${key}.lock`), this.fs, ' (the same file by another path: a hard link)');
    this.#release();
    this.#release = release;
    this.#key = key;
  }

  release(): void {
    this.#release();
    this.#release = () => {};
    this.#key = null;
  }
}

/** Takes `lockPath` (created exclusively, holding our pid) and returns its release; `same` explains a holder. */
function takeLockFile(file: string, lockPath: string, fs: LockFs, same = ''): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(lockPath, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new LockError(`cannot create the lock file ${lockPath}: ${cause(err)}`);
      takeOverIfStale(file, lockPath, fs, same);
      continue;
    }
    try {
      fs.writeSync(fd, String(process.pid));
    } catch (err) {
      // A full disk: the empty lock would read as a dead owner's, but leave nothing behind.
      closeQuietly(fd, fs);
      unlinkQuietly(lockPath, fs);
      throw new LockError(`cannot write the lock file ${lockPath}: ${cause(err)}`);
    }
    closeQuietly(fd, fs);
    return () => {
      try {
        if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
      } catch {
        /* already gone */
      }
    };
  }
  throw new LockError(`refusing data file ${file}: could not take the lock file ${lockPath}`);
}

/** Throws when a live process holds the lock; removes the lock of a dead one. */
function takeOverIfStale(file: string, lockPath: string, fs: LockFs, same: string): void {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // released meanwhile (or a dangling link): try again
    throw new LockError(`cannot read the lock file ${lockPath}: ${cause(err)}`);
  }
  const pid = Number(text);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
    throw new LockError(`refusing data file ${file}: it is in use by process ${pid}${same} (lock file ${lockPath})`);
  }
  try {
    fs.unlinkSync(lockPath); // the owner died without releasing it
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new LockError(`cannot remove the stale lock file ${lockPath}: ${cause(err)}`);
  }
}

function closeQuietly(fd: number, fs: LockFs): void {
  try {
    fs.closeSync(fd);
  } catch {
    /* nothing to do */
  }
}

function unlinkQuietly(path: string, fs: LockFs): void {
  try {
    fs.unlinkSync(path);
  } catch {
    /* nothing to do */
  }
}
