// Setting a project's budget (endpoint 7): limits merged over the stored ones, checked as a whole, and the config epoch raised.
import type { WriteDeps } from './write-deps.js';
import { ValidationError, type ValidationItem } from '../errors.js';
import type { BudgetLimits, BudgetRequest } from '../schemas/index.js';
import type { RecordOf } from '../schemas/index.js';
import { writableProject } from './write-guard.js';

type Budget = RecordOf<'budgets'>;
type LimitField = keyof BudgetLimits;

const LIMIT_FIELDS: readonly LimitField[] = ['project_daily_usd', 'project_monthly_usd', 'user_daily_usd', 'user_monthly_usd'];

/** Each pair is (lower, upper): per-user <= per-project, daily <= monthly. */
const ORDER: readonly [LimitField, LimitField][] = [
  ['user_daily_usd', 'project_daily_usd'],
  ['user_monthly_usd', 'project_monthly_usd'],
  ['project_daily_usd', 'project_monthly_usd'],
  ['user_daily_usd', 'user_monthly_usd'],
];

const EMPTY_LIMITS: BudgetLimits = { project_daily_usd: null, project_monthly_usd: null, user_daily_usd: null, user_monthly_usd: null };

/**
 * The 422 items for limits that break the ordering. The loc names a field the body gave (the
 * one the client can fix), the lower one when it gave both; a stored limit alone is never blamed.
 */
function limitViolations(limits: BudgetLimits, given: ReadonlySet<LimitField>): ValidationItem[] {
  const items: ValidationItem[] = [];
  for (const [lower, upper] of ORDER) {
    const lo = limits[lower];
    const hi = limits[upper];
    if (lo === null || hi === null || lo <= hi) continue;
    if (given.has(lower) || !given.has(upper)) {
      items.push({ loc: ['body', lower], msg: `${lower} (${lo}) may not exceed ${upper} (${hi})`, type: 'value_error', input: lo });
    } else {
      items.push({ loc: ['body', upper], msg: `${upper} (${hi}) may not be below ${lower} (${lo})`, type: 'value_error', input: hi });
    }
  }
  return items;
}

/** Pure: the budget after a PUT, or a ValidationError. */
function nextBudget(current: Budget, body: BudgetRequest): Budget {
  const given = new Set(LIMIT_FIELDS.filter((f) => body[f] !== undefined));
  if (body.clear === true && given.size > 0) {
    throw new ValidationError(
      [...given].map((f) => ({ loc: ['body', f], msg: 'No amount may be given together with clear: true', type: 'value_error', input: body[f] })),
    );
  }
  const base = body.clear === true ? EMPTY_LIMITS : current.limits;
  const limits: BudgetLimits = { ...EMPTY_LIMITS, ...base };
  for (const f of given) limits[f] = body[f] as number;
  const violations = limitViolations(limits, given);
  if (violations.length > 0) throw new ValidationError(violations);
  return {
    ...current,
    funding_mode: body.funding_mode ?? current.funding_mode,
    limits,
    runtime_config_epoch: current.runtime_config_epoch + 1,
  };
}

/** A project without a stored budget (one created outside the fixtures) starts from the fixture defaults. */
export function defaultBudget(projectId: string): Budget {
  return {
    project_id: projectId,
    funding_mode: 'free_sandbox',
    credit_balance_usd: 0,
    current_daily_spend_usd: 0,
    current_monthly_spend_usd: 0,
    runtime_config_epoch: 0,
    limits: { ...EMPTY_LIMITS },
  };
}

export async function setBudget(deps: WriteDeps, projectId: string, body: BudgetRequest): Promise<Budget> {
  return deps.store.transact((tx) => {
    writableProject(tx, projectId);
    const current = tx.get('budgets', projectId) ?? defaultBudget(projectId);
    return tx.put('budgets', nextBudget(current, body));
  });
}
