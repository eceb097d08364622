// Sandbox ids: lower-case letters and digits, so an id is a URL path segment and a DNS label ({id}.localhost) as it is.
import { createHash } from 'node:crypto';
import { customAlphabet } from 'nanoid';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** 20 characters of 36: about 103 bits, not guessable from the ids a client already knows. */
const SANDBOX_ID_LENGTH = 20;

/**
 * The same characters as one flat string. A string built with `+=` (nanoid builds its ids so) is a chain of one node
 * per character, about 640 bytes for an id a sandbox holds as long as it lives; a join of the characters is 40.
 */
export const flat = (id: string): string => id.split('').join('');

/** Random ids (crypto), or a seeded sequence when the server has a seed, so seeded runs name their sandboxes alike. */
export function sandboxIds(seed?: string | number): () => string {
  if (seed === undefined) {
    const random = customAlphabet(ALPHABET, SANDBOX_ID_LENGTH);
    return () => flat(random());
  }
  let n = 0;
  return () => {
    const bytes = createHash('sha256').update(`sandbox:${seed}:${n++}`).digest();
    const chars: string[] = [];
    for (let i = 0; i < SANDBOX_ID_LENGTH; i++) chars.push(ALPHABET[bytes[i] % ALPHABET.length]);
    return chars.join('');
  };
}
