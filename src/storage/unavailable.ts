// The one error storage throws when a change could not be stored or state could not be read; the HTTP layer maps it to 503.
import { SandboxGone } from './sandbox-gone.js';

/**
 * Storage could not store a change (it was rolled back) or could not be read. The cause is kept for logs and the CLI,
 * never shown to a client: `src/errors.ts` answers it as 503 `storage_unavailable`.
 */
export class StorageUnavailable extends Error {
  /** The reason code the HTTP layer answers with (so in-process callers can tell it apart by code as well). */
  readonly reason_code = 'storage_unavailable' as const;
  readonly status = 503;

  constructor(cause: unknown) {
    super('The change could not be stored, so it was not made. Try again later.', { cause });
    this.name = 'StorageUnavailable';
  }
}

/**
 * Wraps `cause` (once) as StorageUnavailable; a sandbox that has ended stays SandboxGone (404, not 503): the storage
 * works, what it was asked about is gone.
 */
export const storageUnavailable = (cause: unknown): StorageUnavailable | SandboxGone =>
  cause instanceof StorageUnavailable || cause instanceof SandboxGone ? cause : new StorageUnavailable(cause);
