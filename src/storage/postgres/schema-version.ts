// The layout version and the refusal of a foreign or newer one: free of `pg` types, so the package's public
// declarations never import `pg` (a consumer needs no @types/pg).
import { sharedIdentity } from '../../shared-identity.js';

/** The layout this build writes; a database with a higher version was written by a newer build and is refused. */
export const SCHEMA_VERSION = 1;
export const SCHEMA_FORMAT = 'project-runtime-mock';

/** Raised when the database cannot be used (a foreign or newer layout); start-up stops and nothing is written. */
export class DatabaseSchemaError extends Error {
  static {
    sharedIdentity(this, 'DatabaseSchemaError');
  }

  constructor(
    readonly database: string,
    reason: string,
  ) {
    super(`refusing database ${database}: ${reason}`);
    this.name = 'DatabaseSchemaError';
  }
}
