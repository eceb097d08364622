// A fast path for loading big files: a checker compiled from a valibot schema that says "valid and already complete" without building any output.
import * as v from 'valibot';

type Check = (value: unknown) => boolean;
type Node = { kind: string; type: string; [k: string]: unknown };

const NEVER: Check = () => false;
const compiled = new WeakMap<object, Check>();
const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * True only when valibot would accept `value` and give it back unchanged (no default to fill in, no
 * unknown key to drop): the loader then keeps the record as read and skips valibot, which builds a copy
 * of every record. A schema it does not know is run on its own and must give its input back unchanged;
 * an action it does not know compiles to "no", so valibot decides: a "no" is only slower, never wrong.
 */
export function completeAndValid(schema: v.GenericSchema): Check {
  return compile(schema as unknown as Node);
}

function compile(s: Node): Check {
  let check = compiled.get(s);
  if (!check) {
    check = build(s);
    compiled.set(s, check);
  }
  return check;
}

function build(s: Node): Check {
  if (s.kind !== 'schema' || s.async) return NEVER;
  if (Array.isArray(s.pipe)) {
    const [base, ...steps] = s.pipe as Node[];
    const checks = [compile(base), ...steps.map((step) => (step.kind === 'schema' ? compile(step) : action(step)))];
    if (checks.includes(NEVER)) return NEVER;
    return (x) => checks.every((c) => c(x));
  }
  if (s.fallback !== undefined) return NEVER;
  switch (s.type) {
    case 'string':
      return (x) => typeof x === 'string';
    case 'number':
      return (x) => typeof x === 'number' && !Number.isNaN(x);
    case 'boolean':
      return (x) => typeof x === 'boolean';
    case 'unknown':
      return () => true;
    case 'picklist': {
      const options = s.options as unknown[];
      return (x) => options.includes(x);
    }
    case 'custom': {
      const test = s.check as (x: unknown) => boolean;
      return (x) => test(x) === true;
    }
    case 'nullable': {
      const inner = compile(s.wrapped as Node);
      const filled = s.default !== undefined; // null would become the default
      return (x) => (x === null ? !filled : inner(x));
    }
    case 'optional': {
      const inner = compile(s.wrapped as Node);
      return (x) => x !== undefined && inner(x);
    }
    case 'array': {
      const item = compile(s.item as Node);
      return (x) => {
        if (!Array.isArray(x)) return false;
        for (let i = 0; i < x.length; i++) if (!item(x[i])) return false; // holes too, as valibot reads them
        return true;
      };
    }
    case 'object':
    case 'strict_object': // the check refuses unknown keys either way
      return objectCheck(s.entries as Record<string, Node>);
    default:
      return sameValue(s);
  }
}

/**
 * Any other schema (the pydantic-like fields: py_uuid, py_datetime, py_int, ...): run it, and say yes
 * only when it raised nothing and gave back the very value it got (a coerced or rebuilt value differs).
 */
function sameValue(s: Node): Check {
  const run = s['~run'];
  if (typeof run !== 'function') return NEVER;
  const config = v.getGlobalConfig({ abortEarly: true });
  return (x) => {
    const out = run.call(s, { typed: false, value: x }, config) as { issues?: unknown; typed: boolean; value: unknown };
    return out.issues === undefined && out.typed && out.value === x;
  };
}

function objectCheck(entries: Record<string, Node>): Check {
  const fields: [string, Check, boolean][] = []; // key, check, may be absent (optional without default)
  for (const [key, e] of Object.entries(entries)) {
    if (key in Object.prototype) return NEVER; // valibot looks keys up with `in`, prototype included
    const optional = e.type === 'optional' || e.type === 'nullish' || e.type === 'exact_optional';
    if (optional && e.type !== 'optional') return NEVER;
    fields.push([key, compile(e), optional && e.default === undefined]);
  }
  if (fields.some(([, c]) => c === NEVER)) return NEVER;
  return (x) => {
    if (!isPlainObject(x)) return false;
    let present = 0;
    for (const [key, check, mayBeAbsent] of fields) {
      if (Object.hasOwn(x, key)) {
        present++;
        if (!check(x[key])) return false;
      } else if (!mayBeAbsent) return false;
    }
    return present === Object.keys(x).length; // an unknown key would be dropped
  };
}

function action(a: Node): Check {
  if (a.kind !== 'validation' || a.async) return NEVER;
  const req = a.requirement;
  switch (a.type) {
    case 'uuid':
    case 'iso_timestamp':
    case 'regex': {
      const re = req as RegExp;
      if (!(re instanceof RegExp) || re.global || re.sticky) return NEVER;
      return (x) => re.test(x as string);
    }
    case 'min_length':
      return (x) => (x as string).length >= (req as number);
    case 'max_length':
      return (x) => (x as string).length <= (req as number);
    case 'min_value':
      return typeof req === 'number' ? (x) => (x as number) >= req : NEVER;
    case 'max_value':
      return typeof req === 'number' ? (x) => (x as number) <= req : NEVER;
    case 'integer':
      return (x) => Number.isInteger(x);
    case 'safe_integer':
      return (x) => Number.isSafeInteger(x);
    case 'finite':
      return (x) => Number.isFinite(x);
    default:
      return NEVER;
  }
}
