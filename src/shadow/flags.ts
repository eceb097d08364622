// The server's shadow flags: --shadow URL, --shadow-token T, --shadow-writes (only with --disposable-project ID).
import { WRITES_RULE, type ShadowOptions } from './options.js';

export const SHADOW_USAGE = `  --shadow URL         also send each v3 GET to URL (a staging service); differences go to GET /_mock/drift
  --shadow-token T     the bearer token the target gets; --shadow-writes: writes too, only to --disposable-project ID`;

export interface ShadowFlagValues {
  shadow?: string;
  'shadow-token'?: string;
  'shadow-writes'?: boolean;
  'disposable-project'?: string;
}

/** createApp's `shadow` from the flags, or a usage error (one line naming the rule); undefined without --shadow. */
export function shadowFlags(f: ShadowFlagValues): { options?: ShadowOptions; error?: string } {
  if (f.shadow === undefined) {
    const stray = (['shadow-token', 'shadow-writes', 'disposable-project'] as const).find((k) => f[k] !== undefined && f[k] !== false);
    return stray ? { error: `--${stray} needs --shadow URL` } : {};
  }
  if (!/^https?:\/\/[^/]/.test(f.shadow)) return { error: `--shadow must be an http(s) URL, got ${f.shadow}` };
  try {
    new URL(f.shadow);
  } catch {
    return { error: `--shadow must be an http(s) URL, got ${f.shadow}` };
  }
  if (f['shadow-token'] === '') return { error: '--shadow-token must not be empty' };
  if (f['disposable-project'] === '') return { error: '--disposable-project must not be empty' };
  if (f['shadow-writes'] && f['disposable-project'] === undefined) return { error: `--shadow-writes needs --disposable-project ID: ${WRITES_RULE}` };
  return {
    options: { url: f.shadow, token: f['shadow-token'], writes: f['shadow-writes'] === true, disposableProject: f['disposable-project'] },
  };
}
