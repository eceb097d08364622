// Declares that a suite needs something outside the repository (a PostgreSQL server, Chromium). Under test/run.mjs a
// file whose need is missing has its tests skipped with the reason printed, and under CI that skip fails the run
// (unless TEST_ALLOW_SKIP names the need). Call it at the top of the file, before registering tests.
import { existsSync } from 'node:fs';

interface Runner {
  needsMissing(name: string, hint: string): void;
}

/** True when `available`; otherwise reports the skip (to the runner, or on stdout under plain uvu) and returns false. */
export function needs(name: string, available: boolean, hint: string): boolean {
  if (available) return true;
  const runner = (globalThis as { __TEST_RUNNER__?: Runner }).__TEST_RUNNER__;
  if (runner) runner.needsMissing(name, hint);
  else console.log(`skipped: needs ${name} (${hint})`);
  return false;
}

/** Debian's Chromium, driven by playwright-core (no browser download). */
export const CHROMIUM = '/usr/bin/chromium';
export const needsChromium = (): boolean => needs('chromium', existsSync(CHROMIUM), `install Debian's chromium at ${CHROMIUM}`);

/** Chromium headless on a closed network: no QUIC, no background fetches, no component or sync traffic, no first-run UI (as test/browser/docs-check.mjs). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
