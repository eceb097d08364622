// The control routes the page calls, typed from the declarations (through the generated OpenAPI types the typed client
// uses): a route's path and query parameters, its body, and its answer, so no call asserts what it gets back.
import type { operations, paths } from '../../client/generated.js';

type Lower = 'get' | 'post' | 'put' | 'delete';
/** An operation's query parameters. */
export type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;
/** A /_mock route template of the document. */
export type ControlPath = Extract<keyof paths, `/_mock/${string}`>;
/** The methods a route has (the document lists the others as `never`). */
export type VerbOf<P extends ControlPath> = { [K in Lower]: [NonNullable<paths[P][K]>] extends [never] ? never : Uppercase<K> }[Lower];
type Op<P extends ControlPath, M extends string> = NonNullable<paths[P][Lowercase<M> & Lower]>;
type Params<O, Where extends 'path' | 'query'> = O extends { parameters: { [K in Where]?: infer X } } ? Exclude<X, undefined> : never;
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : R extends { content: { [type: string]: infer T } } ? T : never;
type RequestBody<O> = O extends { requestBody?: infer R } ? Json<Exclude<R, undefined>> : never;

/** What a call may give: path parameters, query parameters, a body (JSON, or text sent as is). */
export type CallInput<P extends ControlPath, M extends string> = {
  path?: Params<Op<P, M>, 'path'>;
  query?: Params<Op<P, M>, 'query'>;
  body?: RequestBody<Op<P, M>> | string;
};
/** What a call resolves with: the route's success answer (200, or 201 for a create). */
export type Answer<P extends ControlPath, M extends string> =
  Op<P, M> extends { responses: infer R } ? (R extends { 200: infer A } ? Json<A> : R extends { 201: infer A } ? Json<A> : never) : never;

/** The URL of a route template with its path parameters filled in (each encoded) and its query appended. */
export function routeUrl(template: string, path?: object, query?: object): string {
  const params = (path ?? {}) as Record<string, string | number>;
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${filled}?${s}` : filled;
}
