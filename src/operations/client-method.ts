// How the typed client calls an operation: scripts/client-methods.ts writes src/client/v3.ts and control.ts from these.
// Arguments come in one order: the path parameters (in path order), the body, the query, the call options.

/** One typed-client method of an operation (an operation may have two: `setClock` and `advanceClock`). */
export interface ClientMethod {
  /** The method's name; a v3 method is named as its operation. */
  name?: string;
  /** Its doc comment (a v3 method's starts with its endpoint's number). */
  doc?: string;
  /** The body's parameter name (`body`), or the body's fields taken one by one: `[parameter, field, type]`. */
  body?: string | [param: string, field: string, type: 'string' | 'number'][];
  /** The query's parameter name (`query`). */
  query?: string;
  /** The field of a control answer the method resolves with (a page's `items`, a clear's `cleared`). */
  yields?: 'items' | 'cleared';
  /** A verification: it rejects with node's AssertionError on a 417, its operator being the method's name. */
  verifies?: true;
  /** It resolves with a client bound to the sandbox the answer describes (and no body means `{}`). */
  binds?: true;
}
