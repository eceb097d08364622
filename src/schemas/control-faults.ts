// The body of POST /_mock/faults: what a fault matches, when it fires, and what it answers (status, delay, rate limit, transport).
import * as v from 'valibot';
import { AnyJson, Float, Int, NonNegInt } from './common.js';
import { GLOB_MAX_LENGTH } from '../glob.js';
import { TRANSPORT_FAULTS } from './transport-faults.js';

/** The longest wait a fault may impose, fixed or drawn (five minutes). */
export const MAX_DELAY_MS = 300_000;
/** Headers a fault may add, and requests a rate limit may count: bounded, as everything a request keeps. */
const MAX_FAULT_HEADERS = 32;
const MAX_RATE_LIMIT_REQUESTS = 100_000;

const PosInt = v.pipe(Int, v.minValue(1));
const Text = v.pipe(v.string(), v.maxLength(GLOB_MAX_LENGTH, `String should have at most ${GLOB_MAX_LENGTH} characters`));
const Delay = v.pipe(Int, v.minValue(0), v.maxValue(MAX_DELAY_MS));
const HeaderName = v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Input should be an HTTP header name'));
const HeaderValue = v.pipe(
  v.string(),
  v.maxLength(1024, 'String should have at most 1024 characters'),
  v.regex(/^[\t\x20-\x7e]*$/, 'Input should be printable ASCII'),
);

const UniformDelaySchema = v.strictObject({ distribution: v.literal('uniform'), min_ms: Delay, max_ms: Delay });
const LognormalDelaySchema = v.strictObject({
  distribution: v.literal('lognormal'),
  median_ms: v.pipe(Int, v.minValue(1), v.maxValue(MAX_DELAY_MS)),
  p99_ms: Delay,
});
export type DelaySpec = number | v.InferOutput<typeof UniformDelaySchema> | v.InferOutput<typeof LognormalDelaySchema>;

/** Beside method and path: what else a request must show for the fault to apply. */
const FaultMatchSchema = v.strictObject({
  /** The operation id of /openapi.json (`cancelRun`). */
  operation: v.optional(Text),
  /** A subset of the query (a repeated key as an array). */
  query: v.optional(v.record(v.string(), v.union([v.string(), v.array(v.string())]))),
  /** A subset of the headers; names in any case. */
  headers: v.optional(v.record(v.string(), v.string())),
  /** A JSON subset of the request body (arrays by position, same length). */
  body: v.optional(AnyJson),
  /** The principal id behind the bearer token. */
  principal: v.optional(Text),
});

export const FaultRequestSchema = v.strictObject({
  /** An HTTP method or `*` (any). */
  method: v.optional(v.pipe(v.string(), v.regex(/^(\*|[A-Za-z]+)$/, 'Input should be an HTTP method or *')), '*'),
  /** A path glob (`*` one segment, `**` any number). */
  path: v.optional(
    v.pipe(
      v.string(),
      v.startsWith('/', 'Input should be a path starting with /'),
      v.maxLength(GLOB_MAX_LENGTH, `String should have at most ${GLOB_MAX_LENGTH} characters`),
    ),
    '/**',
  ),
  match: v.optional(FaultMatchSchema),
  /** Answer with this status instead of handling the request. */
  status: v.optional(v.pipe(Int, v.minValue(100), v.maxValue(599))),
  body: v.optional(AnyJson),
  /** Response headers added to a status (or rate-limit) answer. */
  headers: v.optional(v.pipe(v.record(HeaderName, HeaderValue), v.maxEntries(MAX_FAULT_HEADERS, `Dictionary should have at most ${MAX_FAULT_HEADERS} items`))),
  /** Wait first: a number of ms, or a distribution drawn from the seeded generator. */
  delay_ms: v.optional(v.union([Delay, UniformDelaySchema, LognormalDelaySchema])),
  /** Fire on the next N matching requests (after `after`), then disappear. */
  times: v.optional(PosInt),
  /** Skip the first N matching requests. */
  after: v.optional(NonNegInt),
  /** Fire with this probability (0-1), drawn from the seeded generator. */
  probability: v.optional(v.pipe(Float, v.minValue(0), v.maxValue(1))),
  /** 429 with Retry-After once more than `requests` matching requests came within `per_ms` of mock-clock time. */
  rate_limit: v.optional(
    v.strictObject({
      requests: v.pipe(Int, v.minValue(1), v.maxValue(MAX_RATE_LIMIT_REQUESTS)),
      per_ms: v.pipe(Int, v.minValue(1), v.maxValue(365 * 24 * 3600 * 1000)),
    }),
  ),
  /** Break the connection the way networks do. */
  transport: v.optional(v.picklist(TRANSPORT_FAULTS)),
  /** The pace of a `slow_body` answer. */
  bytes_per_s: v.optional(v.pipe(Int, v.minValue(1), v.maxValue(100 * 1024 * 1024))),
});
export type FaultRequest = v.InferInput<typeof FaultRequestSchema>;
export type FaultBody = v.InferOutput<typeof FaultRequestSchema>;
