// When a fault fires and how long it waits: `after`, `probability` and delay distributions, drawn from the seeded generator.
import { seededFraction } from '../../domain/index.js';
import { MAX_DELAY_MS, type DelaySpec } from '../../schemas/index.js';

/** z of the 99th percentile of the standard normal distribution. */
const Z99 = 2.3263478740408408;

/**
 * Draws keyed by what they decide (the fault and its match number), not by a shared counter: the same requests give
 * the same draws in every run of a seeded mock, whatever else the mock draws meanwhile.
 */
export class FaultDraws {
  constructor(private readonly seed: string) {}

  /** A uniform number in [0, 1) for this fault's nth match and purpose. */
  fraction(faultId: string, match: number, purpose: string): number {
    return seededFraction(this.seed, `fault:${faultId}:${match}:${purpose}`);
  }

  /** Whether a fault with `probability` fires on its nth match (1 always does, 0 never). */
  fires(faultId: string, match: number, probability: number | undefined): boolean {
    return probability === undefined || this.fraction(faultId, match, 'probability') < probability;
  }

  /** The wait in whole ms: the number given, or a draw from the distribution, capped at MAX_DELAY_MS. */
  delay(faultId: string, match: number, spec: DelaySpec | undefined): number | undefined {
    if (spec === undefined || typeof spec === 'number') return spec;
    const u = this.fraction(faultId, match, 'delay');
    if (spec.distribution === 'uniform') return Math.round(spec.min_ms + u * (spec.max_ms - spec.min_ms));
    // Lognormal: ln(delay) ~ N(mu, sigma) with exp(mu) = median and exp(mu + Z99 sigma) = p99 (Box-Muller for the normal).
    const mu = Math.log(spec.median_ms);
    const sigma = (Math.log(Math.max(spec.p99_ms, spec.median_ms)) - mu) / Z99;
    const u2 = this.fraction(faultId, match, 'delay2');
    const z = Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * u2);
    return Math.min(MAX_DELAY_MS, Math.round(Math.exp(mu + sigma * z)));
  }
}

/** `after: n` skips the first n matches: does the nth match (1-based) fire? */
export const pastAfter = (match: number, after: number | undefined): boolean => match > (after ?? 0);
