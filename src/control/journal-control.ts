// The control operations on a mock's request journal: list it, read one entry, assert over it (verify), empty it.
import { ApiError } from '../errors.js';
import type { Journal, JournalEntry, JournalFilter, JournalSummary } from './journal.js';
import type { Verifier, VerifyAnswer, VerifyListRequest, VerifyRequest } from './verify/index.js';

export class JournalControl {
  constructor(
    private readonly journal: Journal,
    private readonly verifier: Verifier,
  ) {}

  /**
   * Journal entries, oldest first (bounded to the last 1000), filtered by method, path (substring or glob), status, `after`
   * an id and `limit` (the newest N); `summary: true` leaves out query, headers and bodies.
   */
  requests(filter?: JournalFilter & { summary?: false }): JournalEntry[];
  requests(filter: JournalFilter & { summary: true }): JournalSummary[];
  requests(filter: JournalFilter & { summary?: boolean }): JournalEntry[] | JournalSummary[];
  requests(filter: JournalFilter & { summary?: boolean } = {}): JournalEntry[] | JournalSummary[] {
    return filter.summary ? this.journal.summaries(filter) : this.journal.list(filter);
  }

  /** One journal entry in full (redacted); 404 `request_not_found` once it has left the journal. */
  journalEntry(id: number): JournalEntry {
    const e = this.journal.get(id);
    if (!e) throw new ApiError('request_not_found', { affected_resource: `request:${id}` });
    return e;
  }

  /**
   * Asserts that the journal holds requests matching `request`, `count` times (at least once without it); throws
   * node's AssertionError with `expected` and `actual` otherwise. Answers `{matched, ids}`.
   */
  verify(input: VerifyRequest): VerifyAnswer {
    return this.verifier.assert('verify', input);
  }

  /** Asserts that requests matching these patterns happened in this order (others possibly between them). */
  verifySequence(input: VerifyListRequest): VerifyAnswer {
    return this.verifier.assert('verifySequence', input);
  }

  /** Asserts that every journaled request matches at least one of these patterns. */
  verifyOnly(input: VerifyListRequest): VerifyAnswer {
    return this.verifier.assert('verifyOnly', input);
  }

  /** Empties the journal; answers how many entries it held. */
  clearRequests(): number {
    return this.journal.clear();
  }
}
