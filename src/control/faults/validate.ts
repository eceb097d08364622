// A fault document's rules across fields (each a 422 item at the field's loc): what answers, and what goes together.
import { ValidationError, type ValidationItem } from '../../validation.js';
import { parse } from '../../validation.js';
import { unknownOperation } from './operation-of.js';
import { FaultRequestSchema, type FaultBody } from '../../schemas/control-faults.js';
import { PACED_TRANSPORT } from '../../schemas/transport-faults.js';

const item = (loc: (string | number)[], msg: string, input: unknown): ValidationItem => ({ loc: ['body', ...loc], msg, type: 'value_error', input });

/** The body validated, field by field and then across fields; every problem found is one item. */
export function validFault(input: unknown): FaultBody {
  const f = parse(FaultRequestSchema, input, 'body');
  const problems: ValidationItem[] = [];
  const given = (k: keyof FaultBody) => f[k] !== undefined;
  if (!given('status') && !given('delay_ms') && !given('rate_limit') && !given('transport')) {
    problems.push(item([], 'Give status (and optionally body), delay_ms, rate_limit or transport', input));
  }
  if (given('body') && !given('status')) problems.push(item(['body'], 'A fault body needs a status', f.body));
  if (given('headers') && !given('status') && !given('rate_limit')) problems.push(item(['headers'], 'headers go with a status or a rate_limit', f.headers));
  if (given('transport')) {
    for (const k of ['status', 'rate_limit'] as const)
      if (given(k)) problems.push(item(['transport'], `transport cannot be given together with ${k}`, f.transport));
    if (f.transport === PACED_TRANSPORT && !given('bytes_per_s')) problems.push(item(['bytes_per_s'], `${PACED_TRANSPORT} needs bytes_per_s`, null));
  }
  if (given('bytes_per_s') && f.transport !== PACED_TRANSPORT) {
    problems.push(item(['bytes_per_s'], `bytes_per_s goes with transport ${PACED_TRANSPORT}`, f.bytes_per_s));
  }
  if (given('rate_limit')) {
    if (given('status')) problems.push(item(['rate_limit'], 'a rate_limit answers 429 itself: give no status', f.rate_limit));
    for (const k of ['after', 'probability'] as const)
      if (given(k)) problems.push(item([k], `${k} does not apply to a rate_limit (every matching request counts)`, f[k]));
  }
  const unknown = f.match?.operation === undefined ? undefined : unknownOperation(['match', 'operation'], f.match.operation);
  if (unknown) problems.push(unknown);
  const d = f.delay_ms;
  if (typeof d === 'object' && d.distribution === 'uniform' && d.max_ms < d.min_ms)
    problems.push(item(['delay_ms', 'max_ms'], 'max_ms must not be less than min_ms', d.max_ms));
  if (typeof d === 'object' && d.distribution === 'lognormal' && d.p99_ms < d.median_ms)
    problems.push(item(['delay_ms', 'p99_ms'], 'p99_ms must not be less than median_ms', d.p99_ms));
  if (problems.length) throw new ValidationError(problems);
  return f;
}
