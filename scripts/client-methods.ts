// Writes the typed client's methods (src/client/v3.ts and control.ts) from the operation declarations: each method's
// name, arguments and path come from its operation's `client` entry, body, query and path, so a declaration and its
// method cannot drift apart (test/client/client-methods.test.ts regenerates them and fails on any difference).
// `npm run generate:client` rewrites the files; `--check` only compares them.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { CONTROL_DECLARATIONS, V3_DECLARATIONS, type Operation } from '../src/operations/index.js';
import type { ClientMethod } from '../src/operations/index.js';
import { openApiDocument } from '../src/document/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document is walked by key, as JSON
type Json = Record<string, any>;

const doc = openApiDocument(true, true) as Json;

/** A doc comment: one line, or wrapped at 116 columns when it would not fit on one. */
function comment(text: string | undefined): string {
  if (!text) return '';
  if (text.length <= 140) return `/** ${text} */\n`;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > 116) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return `/**\n${[...lines, line].map((l) => ` * ${l}`).join('\n')}\n */\n`;
}

/** `name` or `key: name`, as an object literal's entry. */
const entry = (key: string, name: string) => (key === name ? key : `${key}: ${name}`);

/** One method's source: its doc comment, then `name: (arguments) => call`. */
function method(op: Operation, c: ClientMethod, control: boolean): string {
  const name = c.name ?? op.operationId;
  const verb = op.method.toUpperCase();
  const documented = doc.paths[op.path][op.method] as Json;
  const pathNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pathType = (n: string) => {
    const type = (documented.parameters as Json[]).find((p) => p.in === 'path' && p.name === n)?.schema?.type;
    return type === 'integer' || type === 'number' ? 'number' : 'string';
  };
  const args = pathNames.map((n) => `${n}: ${pathType(n)}`);
  const options: string[] = [];
  const params = [...(pathNames.length ? [`path: { ${pathNames.join(', ')} }`] : [])];
  const brokerSigned = op.security.includes('brokerSignature');
  const headerOf = (scheme: string) => doc.components.securitySchemes[scheme].name as string;
  let headers = '';
  if (op.body && Array.isArray(c.body)) {
    args.push(...c.body.map(([param, , type]) => `${param}: ${type}`));
    options.push(`body: { ${c.body.map(([param, field]) => entry(field, param)).join(', ')} }`);
  } else if (op.body) {
    const param = typeof c.body === 'string' ? c.body : 'body';
    const type = `S['${op.body.schema.name}']`;
    args.push(brokerSigned ? `${param}: ${type} | string` : c.binds ? `${param}: ${type} = {}` : `${param}${op.body.required ? '' : '?'}: ${type}`);
    if (brokerSigned) args.push('signing: BrokerSigning');
    options.push(entry('body', param));
  }
  if (op.security.includes('chatSecret')) {
    args.push('secret: string');
    headers = `headers: { '${headerOf('chatSecret')}': secret, ...opts?.headers }`;
  }
  if (op.query) {
    const param = c.query ?? 'query';
    args.push(`${param}?: Query<'${op.operationId}'>`);
    params.push(entry('query', param));
  }
  args.push('opts?: CallOptions');
  if (params.length) options.unshift(`params: { ${params.join(', ')} }`);
  const text = op.success.some((s) => s.body && 'contentType' in s.body);
  if (text) options.push(`parseAs: 'text'`);
  options.push('...opts');
  if (headers) options.push(headers);
  const call = `api.${verb}('${op.path}', { ${options.join(', ')} })`;
  const what = `'${verb} ${op.path}'`;
  const signature = `(${args.join(', ')})`;
  let body: string;
  if (brokerSigned) {
    const bodyType = `S['${op.body!.schema.name}']`;
    body = `async ${signature} => {
      const text = typeof event === 'string' ? event : JSON.stringify(event);
      const signature = 'secret' in signing ? await hmacSha256Hex(signing.secret, text) : signing.signature;
      return api.${verb}('${op.path}', { body: event as ${bodyType}, bodySerializer: () => text, ...opts, headers: { 'Content-Type': 'application/json', '${headerOf('brokerSignature')}': signature, ...opts?.headers } });
    }`;
  } else if (!control) body = `${signature} => ${call}`;
  else if (c.binds) {
    const answered = op.success[0]!.body as { name: string };
    const bound = `Bound & { sandbox: S['${answered.name}'] }`;
    body = `async ${signature}: Promise<${bound}> => {
      const sandbox = await answer(${what}, ${call});
      return Object.assign(bind(sandbox.id) as Bound & object, { sandbox }) as ${bound};
    }`;
  } else if (c.verifies) body = `${signature} => verified(${what}, '${name}', ${call})`;
  else if (c.yields) body = `async ${signature} => (await answer(${what}, ${call})).${c.yields}`;
  else if (text) body = `async ${signature}: Promise<string> => answer(${what}, ${call}) as Promise<string>`;
  else body = `${signature} => answer(${what}, ${call})`;
  const number = control ? '' : `${op.endpoint}. `;
  return `${comment(c.doc && number + c.doc)}${name}: ${body},`;
}

const methods = (ops: readonly Operation[], control: boolean) =>
  ops.flatMap((op) => (Array.isArray(op.client) ? op.client : [op.client]).map((c) => method(op, c, control))).join('\n');

const HEADER = '// GENERATED by scripts/client-methods.ts from the operation declarations (src/operations): do not edit.';
const TYPES = `type S = components['schemas'];
type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;`;

const v3Source = () => `${HEADER}
// The 20 v3 operations as typed methods. Each answers openapi-fetch's \`{ data, error, response }\`, so a test can
// assert on refusals as on successes. Nothing here is mock-only: the same calls work against the real service.
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated.js';
import { hmacSha256Hex, type BrokerSigning, type CallOptions } from './calls.js';

${TYPES}

export function v3Operations(api: Client<paths>) {
  return {
${methods(V3_DECLARATIONS, false)}
  };
}

export type V3Operations = ReturnType<typeof v3Operations>;
`;

const controlSource = () => `${HEADER}
// The /_mock control surface as typed methods named like the in-process MockControl's. Each resolves with the
// answer and throws a ControlError when the mock refuses (a test's setup should fail loudly, not return an error).
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated.js';
import { answer, verified, type CallOptions } from './calls.js';

${TYPES}

/**
 * \`bind(id)\` makes a client of the same kind addressed to sandbox \`id\` (its base URL plus \`/sandboxes/{id}\`): what
 * createSandbox resolves with.
 */
export function controlOperations<Bound>(api: Client<paths>, bind: (id: string) => Bound) {
  return {
${methods(CONTROL_DECLARATIONS, true)}
  };
}

export type ControlOperations<Bound = unknown> = ReturnType<typeof controlOperations<Bound>>;
`;

/** The generated files (path from the repository root, formatted text). */
export async function clientMethodFiles(): Promise<{ path: string; text: string }[]> {
  return Promise.all(
    [
      ['src/client/v3.ts', v3Source()],
      ['src/client/control.ts', controlSource()],
    ].map(async ([path, source]) => {
      const file = fileURLToPath(new URL(`../${path}`, import.meta.url));
      const options = (await prettier.resolveConfig(file)) ?? {};
      return { path: path!, text: await prettier.format(source!, { ...options, filepath: file }) };
    }),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const { path, text } of await clientMethodFiles()) {
    const file = fileURLToPath(new URL(`../${path}`, import.meta.url));
    if (readFileSync(file, 'utf8') === text) continue;
    stale.push(path);
    if (!check) writeFileSync(file, text);
  }
  const methodCount = [...V3_DECLARATIONS, ...CONTROL_DECLARATIONS].flatMap((op) => op.client).length;
  console.log(
    `client methods: ${methodCount} from ${V3_DECLARATIONS.length + CONTROL_DECLARATIONS.length} declarations; ${stale.length ? `${check ? 'stale' : 'rewritten'}: ${stale.join(', ')}` : 'up to date'}`,
  );
  if (check && stale.length) process.exitCode = 1;
}
