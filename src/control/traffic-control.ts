// The control operations on what a mock does to its v3 traffic and learns from it: injected faults, the coverage
// report and its gate, shadow mode's drift, and the timeline of runs, spend and requests.
import { AssertionError } from 'node:assert';
import type { DriftReport } from '../schemas/drift.js';
import type { TimelineQuery } from '../schemas/control-timeline.js';
import { validFault, type Fault, type FaultSpec } from './faults/index.js';
import type { CoverageReport } from './coverage.js';
import { gapText, gate, type GateResult, type Requirement } from './coverage-gate.js';
import { timeline, type Timeline } from './timeline.js';
import type { ControlCore } from './control-core.js';

export class TrafficControl {
  constructor(private readonly core: Pick<ControlCore, 'deps' | 'parts'>) {}

  /** Injects a fault for matching v3 requests (validated like POST /_mock/faults). */
  addFault(spec: FaultSpec): Fault {
    return this.core.parts.faults.add(validFault(spec));
  }

  /** The faults still active. */
  faults(): Fault[] {
    return this.core.parts.faults.list();
  }

  /** Removes every fault; answers how many there were. */
  clearFaults(): number {
    return this.core.parts.faults.clear();
  }

  /** Which statuses, reason codes and transitions of the 20 operations the traffic so far exercised (reset clears it). */
  coverage(): CoverageReport {
    return this.core.parts.coverage.report();
  }

  /**
   * The coverage gate in process: throws an AssertionError listing each gap (coverage under `failUnder` percent, an
   * `OPERATION:STATUS[:REASON]` never answered) with the control calls that would provoke it.
   */
  assertCoverage(options: { failUnder?: number; require?: (string | Requirement)[] } = {}): GateResult {
    if (options.failUnder !== undefined && !(options.failUnder >= 0 && options.failUnder <= 100))
      throw new TypeError(`assertCoverage: failUnder must be 0..100, got ${options.failUnder}`);
    const result = gate(this.coverage(), options);
    if (!result.ok)
      throw new AssertionError({ message: `Coverage gaps:\n${gapText(result.gaps)}`, actual: result.gaps, expected: [], operator: 'assertCoverage' });
    return result;
  }

  /** What to exercise next: the gaps the coverage gate names at 100 %, each with the calls that provoke it (GET /_mock/coverage/next). */
  coverageNext(): { percent: number; gaps: GateResult['gaps'] } {
    const result = gate(this.coverage(), { failUnder: 100 });
    return { percent: result.percent, gaps: result.gaps };
  }

  /** What shadow mode found: differences by operation and field, counts, the target's state (GET /_mock/drift); `settled` waits for the queue. */
  drift(): DriftReport;
  drift(options: { settled: true }): Promise<DriftReport>;
  drift(options: { settled?: boolean } = {}): DriftReport | Promise<DriftReport> {
    return options.settled ? this.core.parts.drift.settled() : this.core.parts.drift.report();
  }

  /**
   * Runs by status, spend per project, approvals opened and decided, jobs fired and requests by status class over a
   * span of the mock clock (by default the last day), in at most 240 buckets (GET /_mock/timeline).
   */
  timeline(query: TimelineQuery = {}): Timeline {
    return timeline(this.core.deps.view, this.core.parts.journal.records(), this.core.deps.clock.nowMs(), query);
  }
}
