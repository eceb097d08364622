// The data file's lock: every file the JSON-file adapter writes (the snapshot and its log) is held by one process, by
// path and by identity (device and inode), so a second path, a hard link or a copy beside a linked log is refused.
import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';
import { acquirePathLock, IdentityLock, identityLockDir, LockError, type LockFs } from './lock.js';

export class DataFileLock {
  #releasePath: (() => void) | null = null;
  readonly #identities: IdentityLock[];

  /**
   * `file` is the snapshot's real path (symlinks resolved, see realDataPath), its log `${file}.log`; `named` is the path
   * as the user gave it (the same file), which a refusal names.
   */
  constructor(
    private readonly file: string,
    private readonly named = file,
    private readonly fs: LockFs = nodeFs,
    dir = identityLockDir(),
  ) {
    this.#identities = [new IdentityLock(named, fs, dir), new IdentityLock(`${file}.log`, fs, dir)];
  }

  /**
   * Takes `${file}.lock` and the identity of the snapshot and of the log (those that exist), once; again, it moves each
   * identity lock onto its file's current identity. A LockError names the file and the process that holds it, and
   * leaves no lock behind.
   */
  take(): void {
    if (this.#releasePath) return this.follow();
    try {
      this.fs.mkdirSync(dirname(this.file), { recursive: true });
    } catch (err) {
      throw new LockError(`cannot create the directory of data file ${this.named}: ${(err as Error).message}`);
    }
    const releasePath = acquirePathLock(this.named, this.fs);
    try {
      this.follow();
    } catch (err) {
      for (const identity of this.#identities) identity.release();
      releasePath(); // a refused start leaves no lock behind
      throw err;
    }
    this.#releasePath = releasePath;
  }

  /** A file was created or renamed over (a new inode): its identity lock follows it. */
  follow(): void {
    for (const identity of this.#identities) identity.take();
  }

  /** `follow`, reporting a file another process holds instead of throwing (the files were already replaced). */
  moved(report: { warn?(line: string): void }): void {
    try {
      this.follow();
    } catch (err) {
      report.warn?.(`cannot lock the new identity of ${this.file}: ${(err as Error).message}`);
    }
  }

  release(): void {
    for (const identity of this.#identities) identity.release();
    this.#releasePath?.();
    this.#releasePath = null;
  }
}
