// Shadow mode: the mock answers every v3 request and also sends it to a target, recording where the two answers differ.
import type { Middleware } from 'koa';
import type { Journal } from '../control/journal.js';
import type { SecretIndex } from '../control/redact.js';
import { shadowSettings, shownUrl, type ShadowOptions, type ShadowSettings } from './options.js';
import { ShadowSender } from './sender.js';
import { DriftLog } from './drift-log.js';
import { shadowMiddleware } from './middleware.js';
import { compareAnswers } from './compare.js';

export { WRITES_RULE, type ShadowOptions } from './options.js';
export { DRIFT_MAX_BYTES, EXAMPLES_PER_GROUP, DriftLog } from './drift-log.js';
export { DRIFT_PER_REQUEST, DRIFT_VALUE_CHARS } from './middleware.js';
export { MAX_ANSWER_BYTES } from './sender.js';
export { NOTICE_INTERVAL_MS } from './target-health.js';
export { shadowFlags, SHADOW_USAGE } from './flags.js';

/** What every mock of one server shares: the target, its queue and rate, whether it answers. */
export interface ShadowServer {
  settings: ShadowSettings;
  sender: ShadowSender;
  /** The target's URL as it may be shown. */
  url: string;
}

/** Checks createApp's `shadow` (a TypeError names the rule it breaks) and builds the server's sender. */
export function shadowServer(options: ShadowOptions, log: (line: string) => void): ShadowServer {
  const settings = shadowSettings(options);
  const url = shownUrl(settings.url);
  return { settings, url, sender: new ShadowSender(settings, log, url) };
}

/** One mock's drift record (empty and disabled without a shadow server). */
export const driftLog = (server: ShadowServer | null): DriftLog =>
  new DriftLog(server?.sender ?? null, server ? { url: server.url, writes: server.settings.writes } : null);

/** One mock's shadow middleware: outermost, so it sees the answer the client got and the journal entry it left. */
export function mockShadow(
  server: ShadowServer,
  parts: { drift: DriftLog; journal: Journal; secrets: () => SecretIndex; authOff: boolean; nowIso: () => string; report: (err: unknown) => void },
): Middleware {
  return shadowMiddleware({ ...parts, settings: server.settings, sender: server.sender, compare: compareAnswers });
}
