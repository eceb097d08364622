// Module hooks for the cold-load probe: every URL an import resolves to is posted to the main thread, in order.
let port;
export function initialize(data) {
  port = data.port;
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}
