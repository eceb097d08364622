// Id and token generators: random by default, seeded on request so two runs of a test give identical bytes.
import { createHash, randomUUID } from 'node:crypto';
import { customRandom, nanoid, urlAlphabet } from 'nanoid';

export type IdGenerator = () => string;
export type TokenGenerator = (size?: number) => string;

export const randomIds: IdGenerator = () => randomUUID();
export const randomTokens: TokenGenerator = (size = 32) => nanoid(size);

/** A deterministic byte stream: sha256 of seed and counter, so no state but a counter is kept. */
function seededBytes(seed: string): (n: number) => Uint8Array {
  let counter = 0;
  let pool = new Uint8Array(0);
  let offset = 0;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (offset >= pool.length) {
        pool = createHash('sha256').update(`${seed}:${counter++}`).digest();
        offset = 0;
      }
      out[i] = pool[offset++];
    }
    return out;
  };
}

/** UUID v4-shaped ids from a seed: the same seed gives the same sequence. */
export function seededIds(seed: string | number): IdGenerator {
  const bytes = seededBytes(`ids:${seed}`);
  return () => {
    const b = bytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Buffer.from(b).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
}

/** nanoid-alphabet tokens from a seed. */
export function seededTokens(seed: string | number): TokenGenerator {
  const bytes = seededBytes(`tokens:${seed}`);
  return (size = 32) => customRandom(urlAlphabet, size, bytes)();
}

/** A stable UUID v4-shaped id for a name: fixtures derive the ids of records they imply (revisions, budgets). */
export function uuidFor(name: string): string {
  return seededIds(name)();
}

/**
 * A uniform number in [0, 1) for a seed and a name: the simulation's draws (outcomes, traffic gaps) are keyed by
 * what they decide, so they depend on no counter and a restart or a snapshot resumes the same future.
 */
export function seededFraction(seed: string, key: string): number {
  const b = createHash('sha256').update(`${seed}\u0000${key}`).digest();
  return (b.readUIntBE(0, 6)) / 2 ** 48;
}
