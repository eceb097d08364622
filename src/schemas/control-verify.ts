// Bodies of POST /_mock/verify, /_mock/verify/sequence and /_mock/verify/only: request patterns and count forms.
import * as v from 'valibot';
import { AnyJson, NonNegInt } from './common.js';
import { GLOB_MAX_LENGTH } from '../glob.js';

/** Patterns per sequence or only-list: a test names a handful, and each is matched against the whole journal. */
const MAX_PATTERNS = 100;

const Text = v.pipe(v.string(), v.maxLength(GLOB_MAX_LENGTH, `String should have at most ${GLOB_MAX_LENGTH} characters`));
const StatusClass = v.pipe(v.string(), v.regex(/^[1-5]xx$/i, 'Input should be a status like 404 or a class like 4xx'));
const StatusNumber = v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599));

/** What a journaled request must look like; every field optional, all given fields must hold. */
const RequestPatternSchema = v.strictObject({
  method: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]+$/, 'Input should be an HTTP method'))),
  /** A glob as in faults: `*` one segment, `**` any number; a path without `*` matches exactly. */
  path: v.optional(v.pipe(Text, v.startsWith('/', 'Input should be a path starting with /'))),
  /** The operation id of /openapi.json (`cancelRun`). */
  operation: v.optional(Text),
  /** An exact status (404) or a class ('4xx'). */
  status: v.optional(v.union([StatusNumber, StatusClass])),
  reason_code: v.optional(Text),
  /** A subset of the query: each named key with this value (an array for a repeated key). */
  query: v.optional(v.record(v.string(), v.union([v.string(), v.array(v.string())]))),
  /** A subset of the headers, names in any case. */
  headers: v.optional(v.record(v.string(), v.string())),
  /** A JSON subset of the request body: objects may have more keys; arrays match element by element, same length. */
  body: v.optional(AnyJson),
});
export type RequestPattern = v.InferOutput<typeof RequestPatternSchema>;

/** How many matches are expected; without it, at least one. */
const CountSchema = v.strictObject({
  exactly: v.optional(NonNegInt),
  at_least: v.optional(NonNegInt),
  at_most: v.optional(NonNegInt),
});
export type Count = v.InferOutput<typeof CountSchema>;

export const VerifyRequestSchema = v.strictObject({
  request: RequestPatternSchema,
  count: v.optional(CountSchema),
});
export type VerifyRequest = v.InferInput<typeof VerifyRequestSchema>;

const Patterns = v.pipe(
  v.array(RequestPatternSchema),
  v.minLength(1, 'List should have at least 1 item after validation'),
  v.maxLength(MAX_PATTERNS, `List should have at most ${MAX_PATTERNS} items after validation`),
);

/** These happened in this order (others possibly between them). */
export const VerifySequenceSchema = v.strictObject({ requests: Patterns });
/** Every journaled request matches at least one of these. */
export const VerifyOnlySchema = v.strictObject({ requests: Patterns });
export type VerifyListRequest = v.InferInput<typeof VerifySequenceSchema>;
