// The error responses of the document (components.responses): one per status, in the contract's two shapes, each
// listing the reason codes that status can carry (from src/reason-codes.ts).
import { REASON_CODES } from '../reason-codes.js';
import type { ErrorStatus, OperationSpec } from './operation-spec.js';

type Json = Record<string, unknown>;
const refTo = (name: string) => `#/components/schemas/${name}`;

export const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string; validation?: boolean; schema?: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'The token grant failed (`invalid_grant`), or a body\'s bytes are not text in any encoding JSON allows (`body_unreadable`, FastAPI\'s "There was an error parsing the body") (management envelope)',
  },
  401: { name: 'Unauthenticated', description: 'Authentication failed (management envelope with `next_action`; `WWW-Authenticate: Bearer`)' },
  403: { name: 'Forbidden', description: 'The actor lacks the required project authority (management envelope); on /_mock, a cross-site Origin' },
  404: { name: 'NotFound', description: 'The project or scoped resource does not exist or is not visible (management envelope); also unknown routes' },
  409: { name: 'Conflict', description: 'The state forbids the operation (management envelope)' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the limit (management envelope, `payload_too_large`)' },
  415: { name: 'UnsupportedMediaType', description: 'A control request declared a Content-Type other than JSON (management envelope); nothing changed' },
  417: {
    name: 'ExpectationFailed',
    description: 'A verification of the request journal did not hold (management envelope, and beside `detail` what was found)',
    schema: 'VerificationFailure',
  },
  421: { name: 'MisdirectedRequest', description: 'The Host is not one the control surface answers to (management envelope); nothing changed' },
  422: {
    name: 'ValidationFailed',
    description: 'Validation error: malformed JSON, wrong type, missing field, bad enum, out-of-range query, bad path id',
    validation: true,
  },
  429: { name: 'TooManyRequests', description: 'A bound of the server was reached (management envelope, `Retry-After` in seconds); nothing changed' },
};

function reasonCodesFor(status: number): string[] {
  return Object.entries(REASON_CODES)
    .filter(([, spec]) => spec.status === status)
    .map(([code]) => code);
}

/** An operation's error statuses: its own, plus 400 (bytes that are not text) and 413 (over the limit) when it reads a body. */
export function errorStatusesOf(op: OperationSpec): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(op.errors);
  if (op.body) for (const status of [400, 413] as const) statuses.add(status);
  return [...statuses].sort();
}

/** The error responses some operation refers to (a component nothing uses is lint noise, e.g. 421 with control off). */
export function errorResponses(operations: OperationSpec[]): Json {
  const used = new Set(operations.flatMap(errorStatusesOf).map(String));
  const out: Json = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    if (!used.has(status)) continue;
    const codes = reasonCodesFor(Number(status));
    const description = r.validation ? r.description : `${r.description}. Reason codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`;
    const response: Json = {
      description,
      content: { 'application/json': { schema: { $ref: refTo(r.schema ?? (r.validation ? 'ValidationErrorV3' : 'ManagementErrorV3')) } } },
    };
    if (status === '401') response.headers = { 'WWW-Authenticate': { description: '`Bearer`', required: true, schema: { type: 'string' } } };
    out[r.name] = response;
  }
  return out;
}
