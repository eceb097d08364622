// Sandbox ids: lower-case letters and digits, so an id is a URL path segment and a DNS label ({id}.localhost) as it is.
import { createHash } from 'node:crypto';
import { customAlphabet } from 'nanoid';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** 20 characters of 36: about 103 bits, not guessable from the ids a client already knows. */
export const SANDBOX_ID_LENGTH = 20;
/** What an id may look like (ids are never longer than 40 characters). */
export const SANDBOX_ID = /^[a-z0-9]{1,40}$/;

/** Random ids (crypto), or a seeded sequence when the server has a seed, so seeded runs name their sandboxes alike. */
export function sandboxIds(seed?: string | number): () => string {
  if (seed === undefined) return customAlphabet(ALPHABET, SANDBOX_ID_LENGTH);
  let n = 0;
  return () => {
    const bytes = createHash('sha256').update(`sandbox:${seed}:${n++}`).digest();
    let id = '';
    for (let i = 0; i < SANDBOX_ID_LENGTH; i++) id += ALPHABET[bytes[i] % ALPHABET.length];
    return id;
  };
}
