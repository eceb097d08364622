// Sealed secrets in exported state: AES-256-GCM with a per-instance key, so GET /_mock/state shows no secret yet PUT restores it.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { StateData } from '../schemas/index.js';
import { ValidationError, type ValidationItem } from '../errors.js';

export interface Sealed {
  $sealed: string;
}

const PREFIX = 'v1.';

/** The field that is itself a credential, per collection: sealed only where asked (sealRecord's `credentials`). */
const CREDENTIAL_FIELDS: Record<string, string> = { access_tokens: 'token', refresh_tokens: 'token', authorization_codes: 'code' };

const isSealed = (v: unknown): v is Sealed =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Sealed).$sealed === 'string' && Object.keys(v).length === 1;

/** How to give the key a replay needs (the words every refusal to open a sealed value ends with). */
export const SEAL_KEY_HINT = 'give the key it was sealed with: PRM_SEAL_KEY=... in the environment, --seal-key, or createApp({ sealKey })';

/**
 * One key per mock: random, or derived from a seal key the user gives (or the shared storage's secret), never from
 * anything a sealed file holds (its seed, its ids): a file opens only where its key is. Mocks given one key export
 * identical bytes and restore each other's files. The IV is an HMAC of the plaintext (deterministic, SIV-style): the
 * same secret seals to the same value, which keeps such exports byte-identical.
 */
export class Sealer {
  private made: Buffer | undefined;
  constructor(private readonly sealKey?: string) {}

  /**
   * Made at first use: most mocks (sandboxes) never export or import a sealed value, and a key with its buffer is
   * about 350 bytes each. A random key drawn later is as random as one drawn now, and a given one is the same key.
   */
  private get key(): Buffer {
    return (this.made ??=
      this.sealKey === undefined ? randomBytes(32) : createHash('sha256').update(`project-runtime-mock/seal-key\0${this.sealKey}`).digest());
  }

  /** Names the key without revealing it: a repro bundle carries it, so one sealed by another key is refused before anything is opened. */
  fingerprint(): string {
    return createHmac('sha256', this.key).update('project-runtime-mock/seal').digest('base64url').slice(0, 22);
  }

  seal(value: unknown): Sealed {
    const plain = Buffer.from(JSON.stringify(value), 'utf8');
    const iv = createHmac('sha256', this.key).update(plain).digest().subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return { $sealed: PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url') };
  }

  /** The sealed value, or undefined when it was not sealed by this instance's key (or was altered). */
  unseal(s: Sealed): { value: unknown } | undefined {
    if (!s.$sealed.startsWith(PREFIX)) return undefined;
    const raw = Buffer.from(s.$sealed.slice(PREFIX.length), 'base64url');
    if (raw.length < 28) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      return { value: JSON.parse(plain.toString('utf8')) };
    } catch {
      return undefined;
    }
  }

  /** `value` with every `{"$sealed"}` in it opened (plain JSON of bounded depth: a step of an exported test); a value this key did not seal throws. */
  unsealDeep(value: unknown, depth = 0): unknown {
    if (isSealed(value)) {
      const r = this.unseal(value);
      if (!r) throw new TypeError(`A sealed value was not sealed with this mock's key: ${SEAL_KEY_HINT}`);
      return r.value;
    }
    if (value === null || typeof value !== 'object' || depth > 8) return value;
    if (Array.isArray(value)) return value.map((x) => this.unsealDeep(x, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, this.unsealDeep(x, depth + 1)]));
  }

  /** Exported state with webhook secrets, the broker secret, the admin key and tool arguments sealed. */
  sealState(data: StateData): StateData {
    return {
      ...data,
      settings: this.sealSettings(data.settings) as never,
      connections: data.connections.map((c) => this.sealRecord('connections', c)) as never,
      approvals: data.approvals.map((a) => this.sealRecord('approvals', a)) as never,
    };
  }

  sealSettings(settings: StateData['settings']): unknown {
    const sealIfSet = (v: unknown) => (v === null || v === undefined ? v : this.seal(v));
    return { ...settings, admin_key: sealIfSet(settings.admin_key), broker_secret: sealIfSet(settings.broker_secret) };
  }

  /**
   * One exported record with its secret sealed (records of other collections hold none and come back as they are).
   * `credentials`: also the tokens and codes themselves, for documents that leave the mock's users' hands (an exported test).
   */
  sealRecord(collection: string, r: unknown, credentials = false): unknown {
    const rec = r as Record<string, unknown>;
    const field = credentials ? CREDENTIAL_FIELDS[collection] : undefined;
    if (field !== undefined && typeof rec[field] === 'string') return { ...rec, [field]: this.seal(rec[field]) };
    if (collection === 'connections' && 'webhook_secret' in rec)
      return { ...rec, webhook_secret: rec.webhook_secret === null || rec.webhook_secret === undefined ? rec.webhook_secret : this.seal(rec.webhook_secret) };
    if (collection === 'approvals' && rec.tool_arguments !== undefined) return { ...rec, tool_arguments: this.seal(rec.tool_arguments) };
    return r;
  }

  /**
   * Opens every `{"$sealed"}` value in the places sealState puts them (clear values pass through, so
   * hand-written state works); a value this instance cannot open is a 422 at its loc.
   */
  unsealState(input: unknown): unknown {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const data = { ...(input as Record<string, unknown>) };
    const problems: ValidationItem[] = [];
    const open = (v: unknown, loc: (string | number)[]) => {
      if (!isSealed(v)) return v;
      const r = this.unseal(v);
      if (r) return r.value;
      problems.push({ loc: ['body', ...loc], msg: 'Sealed value was not sealed by this instance (or was altered)', type: 'value_error', input: v });
      return v;
    };
    const rows = (key: string, field: string) => {
      const list = data[key];
      if (!Array.isArray(list)) return;
      data[key] = list.map((row, i) =>
        typeof row === 'object' && row !== null && field in row ? { ...row, [field]: open((row as Record<string, unknown>)[field], [key, i, field]) } : row,
      );
    };
    if (typeof data.settings === 'object' && data.settings !== null) {
      const s = { ...(data.settings as Record<string, unknown>) };
      for (const k of ['admin_key', 'broker_secret']) if (k in s) s[k] = open(s[k], ['settings', k]);
      data.settings = s;
    }
    rows('connections', 'webhook_secret');
    rows('approvals', 'tool_arguments');
    for (const [key, field] of Object.entries(CREDENTIAL_FIELDS)) rows(key, field);
    if (problems.length) throw new ValidationError(problems);
    return data;
  }
}

/** What `value` holds sealed, by field: `admin_key`, `token (6)`, ... (at most 8 levels deep, as sealed documents are). */
export function sealedFields(value: unknown): string[] {
  const counts = new Map<string, number>();
  const walk = (v: unknown, key: string, depth: number) => {
    if (isSealed(v)) counts.set(key, (counts.get(key) ?? 0) + 1);
    else if (v !== null && typeof v === 'object' && depth < 8) for (const [k, x] of Object.entries(v)) walk(x, Array.isArray(v) ? key : k, depth + 1);
  };
  walk(value, '', 0);
  return [...counts].map(([k, n]) => (n > 1 ? `${k} (${n})` : k));
}
