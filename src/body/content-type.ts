// Which request bodies are JSON, decided as FastAPI decides (fastapi/routing.py, via email.message.Message).

/**
 * No Content-Type (or an empty one), `application/json`, or `application/<anything>+json`, in any case and with any
 * parameters. A value that is not exactly one `type/subtype` reads as text/plain, as Python's email package reads it.
 */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return true;
  const semi = value.indexOf(';');
  const type = (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
  const slash = type.indexOf('/');
  if (slash < 0 || type.indexOf('/', slash + 1) >= 0) return false;
  const sub = type.slice(slash + 1);
  return type.slice(0, slash) === 'application' && (sub === 'json' || sub.endsWith('+json'));
}
