// The client report's rules, in one table: the report, the docs and the tests all read this list.
import type { Rule } from './rule.js';
import { refreshTokenReused } from './refresh-token-reused.js';
import { codeReused } from './code-reused.js';
import { retryAfterIgnored } from './retry-after-ignored.js';
import { expiredTokenResent } from './expired-token-resent.js';
import { retriedFinalError } from './retried-final-error.js';
import { hotPolling } from './hot-polling.js';
import { unboundedConcurrency } from './unbounded-concurrency.js';
import { SLIPS } from './slips.js';
import { slipRule } from './slip-rule.js';

export const RULES: readonly Rule[] = [
  refreshTokenReused,
  codeReused,
  retryAfterIgnored,
  expiredTokenResent,
  retriedFinalError,
  hotPolling,
  unboundedConcurrency,
  // One request's slip each (slips.ts holds their rows).
  ...SLIPS.map(slipRule),
];
