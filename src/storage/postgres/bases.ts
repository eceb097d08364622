// The whole states sandboxes start from and reset to, stored once by the hash of their JSON text however many share them.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { StateData } from '../../schemas/index.js';
import type { Tables } from './schema.js';

/** Parsed bases kept in memory (a sandbox opened here, or created here, from one): the most recently used ones. */
const KEEP_PARSED = 32;

export class Bases {
  /** Bases this instance stored or read (so a create from the same fixture sends its hash only). */
  readonly #stored = new Set<string>();
  readonly #parsed = new Map<string, StateData>();
  /** A state object's hash and text, computed once (every create from the server's fixtures passes the same object). */
  readonly #keys = new WeakMap<object, { hash: string; text: string }>();

  constructor(private readonly t: Tables) {}

  key(state: StateData): { hash: string; text: string } {
    let k = this.#keys.get(state);
    if (!k) {
      const text = JSON.stringify(state);
      k = { hash: createHash('sha256').update(text).digest('base64url'), text };
      this.#keys.set(state, k);
      this.#remember(k.hash, state);
    }
    return k;
  }

  /** Stores `state` unless this instance knows it is stored; answers its hash. `force`: store it whatever is known. */
  async put(c: pg.ClientBase, state: StateData, force = false): Promise<string> {
    const { hash, text } = this.key(state);
    if (force || !this.#stored.has(hash)) {
      await c.query(`INSERT INTO ${this.t.bases} (hash, state) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`, [hash, text]);
      this.#stored.add(hash);
    }
    return hash;
  }

  /** The state stored under `hash`. */
  async get(c: pg.ClientBase, hash: string): Promise<StateData> {
    const held = this.#parsed.get(hash);
    if (held) {
      this.#remember(hash, held);
      return held;
    }
    const { rows } = await c.query<{ state: string }>(`SELECT state FROM ${this.t.bases} WHERE hash = $1`, [hash]);
    if (!rows[0]) throw new Error(`the sandbox base ${hash} is missing`);
    const state = JSON.parse(rows[0].state) as StateData;
    this.#keys.set(state, { hash, text: rows[0].state });
    this.#stored.add(hash);
    this.#remember(hash, state);
    return state;
  }

  /** Removes those of `hashes` no sandbox starts from or resets to any more. */
  async collect(c: pg.ClientBase, hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0) return;
    try {
      const { rows } = await c.query<{ hash: string }>(
        `DELETE FROM ${this.t.bases} b WHERE b.hash = ANY($1) AND NOT EXISTS (SELECT 1 FROM ${this.t.sandboxes} s WHERE s.base = b.hash OR s.reset = b.hash) RETURNING hash`,
        [hashes],
      );
      for (const r of rows) this.#stored.delete(r.hash);
    } catch (err) {
      // A sandbox that came to use one meanwhile keeps it (its foreign key refuses the delete).
      if (!isMissingBase(err)) throw err;
    }
  }

  #remember(hash: string, state: StateData): void {
    this.#parsed.delete(hash);
    this.#parsed.set(hash, state);
    if (this.#parsed.size > KEEP_PARSED) this.#parsed.delete(this.#parsed.keys().next().value!);
  }
}

/** A foreign key refused a row: a base this instance thought stored was removed meanwhile. */
export const isMissingBase = (err: unknown): boolean => (err as { code?: string }).code === '23503';
