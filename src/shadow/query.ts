// The query string the target gets: the client's, less every parameter the journal would redact (by name, or a value
// that is a credential the mock holds). Other parameters keep their bytes, so the target sees the request as sent.
import { isSecretField, type SecretIndex } from '../control/index.js';

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/** Whether a decoded value is a credential the mock holds (as the journal finds one sent where no name says so). */
const heldCredential = (value: string, secrets: SecretIndex): boolean =>
  value !== '' && (secrets.has(value) || secrets.fixed.some((s) => s !== '' && value.includes(s)));

/** `querystring` (without its `?`) less the parameters that carry a credential; '' when none is left. */
export function forwardedQuery(querystring: string, secrets: SecretIndex): string {
  if (querystring === '') return '';
  return querystring
    .split('&')
    .filter((pair) => {
      const eq = pair.indexOf('=');
      const name = decoded(eq === -1 ? pair : pair.slice(0, eq));
      return !isSecretField(name) && !heldCredential(eq === -1 ? '' : decoded(pair.slice(eq + 1)), secrets);
    })
    .join('&');
}
