// Slips: one request's mistake the service answers without naming (a JSON body sent as text, a token without `Bearer `).
// The answer stays the service's; the journal entry and the client report name the cause and the fix. One row per slip.
import { isJsonContentType } from '../body/index.js';
import { authorizationOf } from '../bearer.js';

/** What a slip is spotted from, read as the request arrived (the journal keeps no credential to read it later). */
export interface SlipInput {
  /** A v3 operation answered it (the control surface is JSON only and says so itself). */
  v3: boolean;
  contentType: string | undefined;
  authorization: string | undefined;
  /** The body's text, or null when there was none. */
  body: string | null;
}

export interface Slip {
  rule: string;
  description: string;
  /** What the client should do instead (shown with each finding). */
  fix: string;
  spotted(r: SlipInput): boolean;
}

/** A body that parses as a JSON object or array: what a client meant as JSON. */
const jsonish = (text: string | null) => {
  const t = text?.trim() ?? '';
  if (!(t.startsWith('{') || t.startsWith('['))) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

export const SLIPS: readonly Slip[] = [
  {
    rule: 'content_type_not_json',
    description:
      'A v3 request whose body is JSON but whose Content-Type is not a JSON type: the service reads such a body as text, and answers 422 "Input should be a valid dictionary" without a word about the header.',
    fix: 'Send Content-Type: application/json with a JSON body.',
    spotted: (r) => r.v3 && r.contentType !== undefined && !isJsonContentType(r.contentType) && jsonish(r.body),
  },
  {
    rule: 'bearer_prefix_missing',
    description:
      'An Authorization header that is not `Bearer <token>` (the token alone, or another scheme): the service answers 401 "Credentials are required." as if none were sent.',
    fix: 'Send Authorization: Bearer <access token>.',
    spotted: (r) => r.authorization !== undefined && r.authorization !== '' && !authorizationOf(r.authorization).bearerShaped,
  },
];

/** The slips of one request (at most one of each), with their fixes. */
export const slipsOf = (r: SlipInput): { rule: string; fix: string }[] => SLIPS.filter((s) => s.spotted(r)).map((s) => ({ rule: s.rule, fix: s.fix }));
