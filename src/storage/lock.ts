// A lock file beside the data file, so two processes never write one file; a dead owner's lock is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

export class LockError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `${file}.lock`; returns a release function. */
export function acquireLock(file: string): () => void {
  const lockPath = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8') === String(process.pid)) unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new LockError(`refusing data file ${file}: it is in use by process ${pid} (lock file ${lockPath})`);
      }
      unlinkSync(lockPath); // the owner died without releasing it
    }
  }
  throw new LockError(`refusing data file ${file}: could not take the lock file ${lockPath}`);
}
