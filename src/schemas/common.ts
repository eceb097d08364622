// Shared valibot building blocks: ids, timestamps, numbers, free-form objects, query integers. The scalars validate
// as pydantic v2 fields do (src/pydantic): the same coercions, the same error types, and every number finite.
import * as v from 'valibot';
import { anyJson, bool, datetime, dict, float, forbidExtra, int, model, strictModel, uuid } from '../pydantic/index.js';

/** `model` ignores unknown keys (v3 bodies, as the service); `strictModel` and `forbidExtra` refuse them (control bodies, fixtures). */
export { model, strictModel, forbidExtra };

/** A UUID (any form the uuid crate reads), held in canonical lowercase hyphenated form. */
export const Uuid = uuid();
/** A datetime (RFC 3339 text or a unix timestamp), held as ISO 8601 text. */
export const Timestamp = datetime();
/** A free-form JSON object (never an array). */
export const FreeObject = dict();
/** Any JSON value (object, array or scalar) whose numbers are all finite. */
export const AnyJson = anyJson();
/** An integer within ±(2^53 - 1). */
export const Int = int();
/** A finite number (pydantic float with allow_inf_nan=False). */
export const Float = float();
export const Bool = bool();
export const NonNegInt = v.pipe(int(), v.minValue(0));
export const NonNegFloat = v.pipe(float(), v.minValue(0));
export const NonEmptyString = v.pipe(v.string(), v.minLength(1));

/** A nullable field that may also be absent; absent reads as null. */
export const nullish = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema), null);

/** An integer query parameter with bounds and a default (the raw string is parsed as pydantic parses an int). */
export const intQuery = (min: number, max: number, fallback: number) => v.optional(v.pipe(int(), v.minValue(min), v.maxValue(max)), fallback);

export const RuntimeMode = v.picklist(['live', 'test']);

/** Compile-time equality of two types: a shallow declared type is held to what its schema infers (`const ok: SameType<A, B> = true`). */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
