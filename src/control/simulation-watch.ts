// What a mock's simulation tells its control parts: executed events and removals to the coverage report, and each
// synthetic chat message to the journal, as the webhook request it stands for (marked simulated, bounded as any entry).
import type { Removed, SentMessage, SimulationObserver } from '../simulation/index.js';
import type { WriteScope } from '../storage/index.js';
import { REASON_CODES, type ReasonCode } from '../reason-codes.js';
import type { CoverageTracker } from './coverage.js';
import type { Journal, JournalRecord } from './journal.js';
import { jsonBody } from './journal-text.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** The journal record of one synthetic message: the webhook's path, the update as its body, what the webhook answered. */
function simulatedRecord(m: SentMessage, bodyLimit: number): JournalRecord {
  const refused = 'skipped' in m.outcome ? m.outcome.skipped : null;
  const status = refused ? (REASON_CODES[refused as ReasonCode]?.status ?? 409) : 200;
  const answer = refused
    ? { detail: { reason_code: refused, message: REASON_CODES[refused as ReasonCode]?.message ?? refused } }
    : { accepted: true, run_id: (m.outcome as { run_id: string }).run_id };
  return {
    atMs: m.atMs,
    method: 'POST',
    path: `/api/v3/connections/${m.bindingId}/chatapp/webhook`,
    querystring: '',
    status,
    duration_ms: 0,
    operation: 'chatWebhook',
    requestHeaders: JSON_HEADERS,
    requestBody: jsonBody(m.update, bodyLimit),
    responseHeaders: JSON_HEADERS,
    responseBody: jsonBody(answer, bodyLimit),
    simulated: true,
  };
}

export class SimulationWatch implements SimulationObserver {
  constructor(
    private readonly coverage: CoverageTracker,
    private readonly journal: Journal,
  ) {}

  get simulatedScope(): WriteScope {
    return this.coverage.simulatedScope;
  }

  recordSimulated(kind: string): void {
    this.coverage.recordSimulated(kind);
  }

  recordRemoved(r: Removed): void {
    this.coverage.recordRemoved(r);
  }

  recordMessage(m: SentMessage): void {
    this.journal.add(simulatedRecord(m, this.journal.bodyBytes));
  }
}
