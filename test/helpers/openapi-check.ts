// Validates every response a suite receives against /openapi.json, so schema and behaviour cannot drift.
// freshMock (app.ts) wraps its supertest client with checkedClient: a response that the document does not
// describe (unknown operation, undocumented status, body or required header that does not match) rejects the
// request's promise, and so fails the test that made it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type request from 'supertest';
import { openApiDocument } from '../../src/document/build.js';
import { UNDESCRIBED_PATHS } from '../../src/document/operations.js';

type Json = Record<string, any>;
type Client = ReturnType<typeof request>;

// ajv-formats is CommonJS with a default export.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

const DOC_ID = 'urn:project-runtime-mock:openapi';
const templateRe = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
const UNDESCRIBED = UNDESCRIBED_PATHS.map(templateRe);
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

interface Route {
  template: string;
  re: RegExp;
  /** Literal characters: a more literal template wins (`/docs` before `/docs/{asset}`). */
  weight: number;
}

class DocChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, DOC_ID);
    this.routes = Object.keys(doc.paths)
      .map((template) => ({
        template,
        // The router (like @koa/router's default) also matches the path with a trailing slash.
        re: templateRe(template),
        weight: template.replace(/\{[^}]+\}/g, '').length,
      }))
      .sort((a, b) => b.weight - a.weight);
  }

  private validator(pointer: string): ValidateFunction {
    let fn = this.validators.get(pointer);
    if (!fn) {
      fn = this.ajv.getSchema(`${DOC_ID}#${pointer}`);
      if (!fn) throw new Error(`openapi-check: no schema at ${pointer}`);
      this.validators.set(pointer, fn);
    }
    return fn;
  }

  private deref(node: Json): Json {
    let n = node;
    while (n && typeof n.$ref === 'string') {
      n = n.$ref
        .slice(2)
        .split('/')
        .reduce((o: Json, k: string) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    }
    return n;
  }

  /** Returns a list of problems; empty when the response matches the document. */
  check(method: string, rawPath: string, res: { status: number; headers: Record<string, string>; text?: string }): string[] {
    const m = method.toLowerCase();
    // A sandbox serves the same document under its path prefix.
    const path = rawPath.split('?')[0].replace(/^\/sandboxes\/[^/]+(?=\/|$)/, '') || '/';
    const what = `${method.toUpperCase()} ${rawPath.split('?')[0]} -> ${res.status}`;
    if (m === 'options' || m === 'head') return [];
    // Addressing a sandbox that is not there, or two different ones, is refused before any operation (docs/sandboxes.md).
    if ((res.status === 404 || res.status === 400) && /"reason_code":"sandbox_(not_found|conflict)"/.test(res.text ?? ''))
      return this.body(what, '/components/schemas/ManagementErrorV3', res);
    // An injected fault answers whatever the test asked for: nothing to check.
    if (res.headers['x-mock-fault']) return [];
    // The document and its page are served outside the document (GET only; another method is a routing 405).
    if (UNDESCRIBED.some((re) => re.test(path))) {
      if (m === 'get') return [];
      return res.status === 405 ? this.body(what, '/components/schemas/ManagementErrorV3', res) : [`${what}: only GET is served here`];
    }

    const candidates = this.routes.filter((r) => r.re.test(path));
    const route = candidates.find((r) => this.doc.paths[r.template][m]);
    if (!route) {
      // No documented operation: only the routing errors may answer (404 unknown path, 405 known path).
      const expected = candidates.length ? 405 : 404;
      if (res.status !== expected && !(res.status === 404 && candidates.length)) {
        return [`${what}: no operation in /openapi.json for this method and path (declare it in src/operations), and the status is not a routing error`];
      }
      return this.body(what, '/components/schemas/ManagementErrorV3', res);
    }
    const opPointer = `/paths/${route.template.replace(/~/g, '~0').replace(/\//g, '~1')}/${m}`;
    const op = this.doc.paths[route.template][m];
    const status = String(res.status);
    const key = op.responses[status] ? status : op.responses[`${status[0]}XX`] ? `${status[0]}XX` : op.responses.default ? 'default' : undefined;
    if (!key) {
      // 404 route_not_found is possible on any path (a template like /docs/{asset} that names nothing).
      if (res.status === 404) return this.body(what, '/components/schemas/ManagementErrorV3', res);
      return [`${what}: status ${status} is not documented for ${op.operationId} (documented: ${Object.keys(op.responses).join(', ')})`];
    }
    const response = this.deref(op.responses[key]);
    const problems: string[] = [];
    for (const [name, h] of Object.entries<Json>(response.headers ?? {})) {
      if (h.required && res.headers[name.toLowerCase()] === undefined) problems.push(`${what}: required header ${name} is missing (${op.operationId})`);
    }
    const content = response.content as Json | undefined;
    if (!content) {
      if (res.text) problems.push(`${what}: ${op.operationId} documents no body for ${key} but one was sent`);
      return problems;
    }
    if (content['application/json']) {
      const pointer =
        response === op.responses[key]
          ? `${opPointer}/responses/${key}/content/application~1json/schema`
          : `${op.responses[key].$ref.slice(1)}/content/application~1json/schema`;
      return [...problems, ...this.body(`${what} (${op.operationId})`, pointer, res)];
    }
    const type = (res.headers['content-type'] ?? '').split(';')[0].trim();
    const accepted = Object.keys(content);
    if (!accepted.includes('*/*') && !accepted.includes(type)) problems.push(`${what}: content-type ${type} is not one of ${accepted.join(', ')}`);
    return problems;
  }

  private body(what: string, pointer: string, res: { headers: Record<string, string>; text?: string }): string[] {
    const type = res.headers['content-type'] ?? '';
    if (!type.includes('application/json')) return [`${what}: expected a JSON body, got content-type "${type}"`];
    let value: unknown;
    try {
      value = JSON.parse(res.text ?? '');
    } catch {
      return [`${what}: the body is not JSON`];
    }
    const validate = this.validator(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${what}: body${e.instancePath} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''} (schema ${pointer})`,
    );
  }
}

const checkers = new Map<boolean, DocChecker>();

/** The checker for the document a mock with this control setting serves. */
export function docChecker(control = true): DocChecker {
  let c = checkers.get(control);
  if (!c) {
    c = new DocChecker(openApiDocument(control));
    checkers.set(control, c);
  }
  return c;
}

export class OpenApiMismatch extends Error {
  constructor(problems: string[], body: string | undefined) {
    super(`response does not match /openapi.json:\n  ${problems.join('\n  ')}\n  body: ${(body ?? '').slice(0, 500)}`);
    this.name = 'OpenApiMismatch';
  }
}

const unchecked = new WeakSet<object>();

/** Opts one request out of the check (for a test that sends a deliberately undocumented answer). */
export function skipOpenApiCheck<T extends object>(test: T): T {
  unchecked.add(test);
  return test;
}

type EndCallback = (err: unknown, res: any) => void;

/**
 * Wraps a supertest client: each request's `end` (which `await`, `.then` and `.end(cb)` all go through)
 * validates the response before handing it on, so `.set()`, `.send()`, `.query()` and `.expect()` chain as usual.
 */
export function checkedClient(client: Client, control = true): Client {
  const checker = docChecker(control);
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !METHODS.includes(prop) || typeof value !== 'function') return value;
      return (url: string, ...rest: unknown[]) => {
        const test = value.call(target, url, ...rest);
        const end = test.end;
        test.end = function (fn: EndCallback) {
          return end.call(this, (err: unknown, res: any) => {
            if (!err && res && !unchecked.has(test)) {
              const problems = checker.check(prop, url, res);
              if (problems.length) return fn?.(new OpenApiMismatch(problems, res.text), res);
            }
            fn?.(err, res);
          });
        };
        return test;
      };
    },
  });
}
