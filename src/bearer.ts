// What an Authorization header says, read once per header text: a client sends the same header on every request, so
// its reading is remembered (bounded), and the token it gives is one string whose hash V8 keeps for each lookup by it.
import { remembered } from './remembered.js';

/** One Authorization header's readings, each by its reader's own rule. */
export interface AuthorizationReading {
  /** The token authentication takes: `Bearer` (any case), spaces, the token, optional trailing white space. */
  readonly token: string | null;
  /** The token the client report fingerprints: `bearer` (any case), white space, the token, nothing after. */
  readonly reported: string | null;
  /** Whether, trimmed, it reads `Bearer <token>` (the slip `bearer_prefix_missing` is its absence). */
  readonly bearerShaped: boolean;
}

const AUTHENTICATED = /^Bearer[ ]+(\S+)\s*$/i;
const REPORTED = /^bearer\s+(\S+)$/i;
const SHAPED = /^bearer\s+\S+$/i;

/** Headers longer than this are read each time; at most this many are remembered, and the next empties the table. */
const REMEMBERED_LENGTH_MAX = 1024;
const REMEMBERED_MAX = 256;

function read(header: string): AuthorizationReading {
  return {
    token: AUTHENTICATED.exec(header)?.[1] ?? null,
    reported: REPORTED.exec(header)?.[1] ?? null,
    bearerShaped: SHAPED.test(header.trim()),
  };
}

/** A reader of headers with a memory of its own: the readings of a header, the same object while it is remembered. */
export function authorizationReader(): (header: string) => AuthorizationReading {
  return remembered((header) => Object.freeze(read(header)), { keys: REMEMBERED_MAX, keyLength: REMEMBERED_LENGTH_MAX });
}

/** The process's reader, which every mock shares (held in memory only, never written anywhere). */
export const authorizationOf = authorizationReader();
