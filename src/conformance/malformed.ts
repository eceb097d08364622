// Values no pydantic v2 field of a given JSON Schema type accepts (lax mode included): one per type, so a probe can
// send a malformed parameter or body field of each type and compare the validation items both sides answer.
import { resolve, type Schema } from '../compare/index.js';

export interface Malformed {
  /** What the value is, for the probe's name: `int_parsing`, `uuid_parsing`, ... (the pydantic error type expected). */
  label: string;
  value: unknown;
}

/** The schema with its nullable branch and $refs taken away: what a present value must be. */
export function concrete(doc: Schema, schema: Schema): Schema {
  const s = resolve(doc, schema);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (!branches) return s;
  const real = branches.map((b) => resolve(doc, b)).filter((b) => b.type !== 'null');
  return real.length === 1 ? concrete(doc, real[0]) : s;
}

/** Bad values for a body field (JSON values): pydantic's lax mode turns none of them into the field's type. */
export function malformedBodyValues(doc: Schema, schema: Schema): Malformed[] {
  const s = concrete(doc, schema);
  if (s.const !== undefined) return [{ label: 'literal_error', value: `not-${String(s.const)}` }];
  if (Array.isArray(s.enum)) return [{ label: 'enum', value: 'conformance-bogus' }];
  switch (s.type) {
    case 'string':
      if (s.format === 'uuid') return [{ label: 'uuid_parsing', value: 'not-a-uuid' }];
      if (s.format === 'date-time') return [{ label: 'datetime_parsing', value: 'yesterday' }];
      return [{ label: 'string_type', value: 5 }];
    case 'number':
      return [{ label: 'float_parsing', value: 'lots' }, ...(typeof s.minimum === 'number' ? [{ label: 'greater_than_equal', value: s.minimum - 1 }] : [])];
    case 'integer':
      return [{ label: 'int_from_float', value: 1.5 }];
    case 'boolean':
      return [{ label: 'bool_parsing', value: 'maybe' }];
    case 'array':
      return [{ label: 'list_type', value: 'x' }];
    case 'object':
      return [{ label: 'dict_type', value: 'x' }];
    default:
      return s.anyOf || s.oneOf ? [{ label: 'union', value: true }] : [];
  }
}

/** Bad values for a path or query parameter (raw strings, as they arrive on the wire). */
export function malformedParamValues(doc: Schema, schema: Schema): Malformed[] {
  const s = concrete(doc, schema);
  if (Array.isArray(s.enum)) return [{ label: 'enum', value: 'conformance-bogus' }];
  if (s.type === 'string' && s.format === 'uuid') return [{ label: 'uuid_parsing', value: 'not-a-uuid' }];
  if (s.type === 'integer') {
    return [
      { label: 'int_parsing', value: 'abc' },
      ...(typeof s.minimum === 'number' ? [{ label: 'greater_than_equal', value: String(s.minimum - 1) }] : []),
      ...(typeof s.maximum === 'number' ? [{ label: 'less_than_equal', value: String(s.maximum + 1) }] : []),
    ];
  }
  if (s.type === 'boolean') return [{ label: 'bool_parsing', value: 'maybe' }];
  return [];
}
