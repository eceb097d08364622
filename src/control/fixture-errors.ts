// Fixture loading for the control surface: a bad fixture becomes 422 items whose loc names each bad field.
import * as v from 'valibot';
import { FixtureSchema } from '../schemas/index.js';
import type { StateData } from '../schemas/index.js';
import { FixtureError, stateFromFixture } from '../fixtures.js';
import { ValidationError, invalid, type ValidationItem } from '../errors.js';
import { issuesToItems } from '../validation.js';

/** `runs[3].release_id: unknown release` -> loc ["body", "runs", 3, "release_id"]. */
function problemToItem(problem: string): ValidationItem {
  const m = /^([^:]*): (.*)$/s.exec(problem);
  const path = m ? m[1] : '';
  const loc: (string | number)[] = ['body'];
  if (path && path !== '(root)') {
    for (const part of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) loc.push(part[2] !== undefined ? Number(part[2]) : part[1]);
  }
  return { loc, msg: m ? m[2] : problem, type: 'value_error' };
}

/** The state a fixture describes, or a ValidationError (schema issues first, then reference checks). */
export function validateFixture(fixture: unknown): StateData {
  if (typeof fixture !== 'object' || fixture === null || Array.isArray(fixture)) {
    throw invalid(['body'], 'Input should be a valid dictionary or object to extract fields from', 'model_attributes_type', fixture);
  }
  const result = v.safeParse(FixtureSchema, fixture, { abortEarly: false, abortPipeEarly: true });
  if (!result.success) throw new ValidationError(issuesToItems(result.issues, 'body', fixture));
  try {
    return stateFromFixture(fixture);
  } catch (err) {
    if (err instanceof FixtureError) throw new ValidationError(err.problems.map(problemToItem));
    throw err;
  }
}
