// Tokens and keys given to a conformance run never reach a report, a progress line or an error message: every text
// that leaves the run passes through the scrubber, which replaces each secret (raw and as JSON escapes it) by a mark.
const REDACTED = '[redacted]';

/** A function that replaces every given secret in a text; empty and missing secrets are ignored. */
export function scrubber(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = [
    ...new Set(
      secrets.filter((s): s is string => typeof s === 'string' && s !== '').flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]),
    ),
  ]
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((t, s) => t.split(s).join(REDACTED), text);
}
