// Verification of what the client did: counts, order and exclusivity of journaled requests (the public face of control/verify).
import { parse, ValidationError } from '../../validation.js';
import { unknownOperation } from '../faults/operation-of.js';
import type { Journal } from '../journal.js';
import { VerifyOnlySchema, VerifyRequestSchema, VerifySequenceSchema, type VerifyListRequest, type VerifyRequest } from '../../schemas/index.js';
import { verifyCount, verifyOnly, verifySequence, type Outcome, type VerifyAnswer } from './check.js';
import { AssertionError } from 'node:assert';
import { verificationError } from '../../verification-error.js';

export type { Outcome, VerifyAnswer } from './check.js';
export type { VerifyRequest, VerifyListRequest } from '../../schemas/index.js';

export type VerificationKind = 'verify' | 'verifySequence' | 'verifyOnly';

/** A pattern naming an operation that does not exist would match nothing, silently: 422 with the closest id instead. */
function knownOperations(named: [(string | number)[], string | undefined][]): void {
  const problems = named.flatMap(([loc, op]) => (op === undefined ? [] : (unknownOperation(loc, op) ?? [])));
  if (problems.length) throw new ValidationError(problems);
}

/** Reads the journal as it is at the moment of each check (redacted, as it is shown). */
export class Verifier {
  constructor(private readonly journal: Journal) {}

  /** The outcome without throwing: what POST /_mock/verify, /sequence and /only answer (200 or 417). Bad input: 422. */
  check(kind: VerificationKind, input: unknown): Outcome {
    // What the client sent: the simulation's own traffic (its synthetic chat messages) is no request of the client's.
    const view = { entries: this.journal.list({ simulated: false }), evicted: this.journal.evicted };
    if (kind === 'verify') {
      const body = parse(VerifyRequestSchema, input, 'body');
      knownOperations([[['request', 'operation'], body.request.operation]]);
      return verifyCount(view, body.request, body.count);
    }
    const body = parse(kind === 'verifySequence' ? VerifySequenceSchema : VerifyOnlySchema, input, 'body');
    knownOperations(body.requests.map((r, i) => [['requests', i, 'operation'], r.operation]));
    return kind === 'verifySequence' ? verifySequence(view, body.requests) : verifyOnly(view, body.requests);
  }

  /** The answer when the verification holds; otherwise throws node's AssertionError (message, expected, actual). */
  assert(kind: VerificationKind, input: VerifyRequest | VerifyListRequest): VerifyAnswer {
    const outcome = this.check(kind, input);
    if (outcome.ok) return outcome.answer;
    throw verificationError(outcome.failure as Parameters<typeof verificationError>[0], kind, AssertionError);
  }
}
