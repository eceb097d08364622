// Id and token generators: random by default, seeded on request so two runs of a test give identical bytes.
import { createHash, randomUUID } from 'node:crypto';
import { customRandom, nanoid, urlAlphabet } from 'nanoid';

export type IdGenerator = () => string;
export type TokenGenerator = (size?: number) => string;

export const randomIds: IdGenerator = () => randomUUID();
export const randomTokens: TokenGenerator = (size = 32) => nanoid(size);

/** A deterministic byte stream: sha256 of seed and counter; its position (bytes drawn) is all the state it has. */
class SeededBytes {
  private counter = 0;
  private pool = new Uint8Array(0);
  private offset = 0;
  /** Bytes drawn so far. */
  position = 0;
  constructor(private readonly seed: string) {}

  take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (this.offset >= this.pool.length) {
        this.pool = createHash('sha256').update(`${this.seed}:${this.counter++}`).digest();
        this.offset = 0;
      }
      out[i] = this.pool[this.offset++];
    }
    this.position += n;
    return out;
  }

  /** Continues from `position` bytes into the stream, as if that many had been drawn. */
  moveTo(position: number): void {
    this.counter = Math.floor(position / 32);
    this.offset = position % 32;
    this.pool = this.offset === 0 ? new Uint8Array(0) : createHash('sha256').update(`${this.seed}:${this.counter++}`).digest();
    this.position = position;
  }
}

function uuidOf(b: Uint8Array): string {
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** UUID v4-shaped ids from a seed: the same seed gives the same sequence. */
export function seededIds(seed: string | number): IdGenerator {
  const bytes = new SeededBytes(`ids:${seed}`);
  return () => uuidOf(bytes.take(16));
}

/** nanoid-alphabet tokens from a seed. */
export function seededTokens(seed: string | number): TokenGenerator {
  const bytes = new SeededBytes(`tokens:${seed}`);
  return (size = 32) => customRandom(urlAlphabet, size, (n) => bytes.take(n))();
}

/** How far each seeded generator has drawn: with the seed, where the next id and token come from. */
export interface GeneratorPositions {
  ids: number;
  tokens: number;
}

/**
 * The seeded id and token generators of one mock, whose positions can be read and set: a repro bundle carries
 * them, so a restored mock mints the very ids and tokens the original would have minted next.
 */
export class SeededGenerators {
  private readonly idBytes: SeededBytes;
  private readonly tokenBytes: SeededBytes;
  constructor(readonly seed: string) {
    this.idBytes = new SeededBytes(`ids:${seed}`);
    this.tokenBytes = new SeededBytes(`tokens:${seed}`);
  }
  readonly ids: IdGenerator = () => uuidOf(this.idBytes.take(16));
  readonly tokens: TokenGenerator = (size = 32) => customRandom(urlAlphabet, size, (n) => this.tokenBytes.take(n))();
  positions(): GeneratorPositions {
    return { ids: this.idBytes.position, tokens: this.tokenBytes.position };
  }
  moveTo(p: GeneratorPositions): void {
    this.idBytes.moveTo(p.ids);
    this.tokenBytes.moveTo(p.tokens);
  }
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
  return b.readUIntBE(0, 6) / 2 ** 48;
}
