// Shared valibot building blocks: ids, timestamps, free-form objects, query integers.
import * as v from 'valibot';

export const Uuid = v.pipe(v.string(), v.uuid('Input should be a valid UUID'));
export const Timestamp = v.pipe(v.string(), v.isoTimestamp('Input should be a valid ISO 8601 date-time'));
/** A free-form JSON object. valibot's record accepts arrays (and copies them into objects); JSON objects here must not be arrays. */
export const FreeObject = v.custom<Record<string, unknown>>(
  (x) => typeof x === 'object' && x !== null && !Array.isArray(x),
  'Input should be a valid dictionary',
);
export const NonEmptyString = v.pipe(v.string(), v.minLength(1));

/** A nullable field that may also be absent; absent reads as null. */
export const nullish = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema), null);

/** An integer query parameter with bounds and a default: query strings arrive as text. */
export const intQuery = (min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^-?\d+$/, 'Input should be a valid integer, unable to parse string as an integer'),
      v.transform(Number),
      v.number(),
      v.minValue(min, `Input should be greater than or equal to ${min}`),
      v.maxValue(max, `Input should be less than or equal to ${max}`),
    ),
    String(fallback),
  );

export const RuntimeMode = v.picklist(['live', 'test']);
