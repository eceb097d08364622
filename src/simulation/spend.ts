// Spend: a step's cost adds to its project's and user's day and month totals (UTC) and lowers the credit; limits stop a run before a step.
import type { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import { defaultBudget } from '../domain/index.js';

type Run = RecordOf<'runs'>;
type Budget = RecordOf<'budgets'>;

/**
 * Money is counted in whole micro-dollars and stored back as dollars, so a total is exactly the sum of the
 * step costs (as micro-dollars) that made it, with no drift from adding binary fractions.
 */
export const toMicros = (usd: number): number => Math.round(usd * 1e6);
export const fromMicros = (m: number): number => m / 1e6;

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const utcMonth = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** The next UTC midnight strictly after `ms`. */
function nextUtcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

export type LimitName = 'project_daily_usd' | 'project_monthly_usd' | 'user_daily_usd' | 'user_monthly_usd' | 'credit_balance_usd';

interface UserTotals {
  daily: number;
  monthly: number;
}

const userKey = (run: Run) => `${run.project_id}:${run.user_id}`;

/** A user's totals today and this month (micro-dollars): a record from an earlier day or month counts as zero. */
function userTotals(tx: Transaction, run: Run, ms: number): UserTotals {
  const rec = run.user_id ? tx.get('user_spend', userKey(run)) : undefined;
  if (!rec) return { daily: 0, monthly: 0 };
  const month = utcMonth(ms);
  return { daily: rec.day === utcDay(ms) ? toMicros(rec.daily_usd) : 0, monthly: rec.month === month ? toMicros(rec.monthly_usd) : 0 };
}

const budgetOf = (tx: Transaction, projectId: string): Budget => tx.get('budgets', projectId) ?? defaultBudget(projectId);

/** Which limit a step of `costUsd` would cross (spend + cost > limit), or null. A step that costs nothing crosses none. */
export function limitCrossed(tx: Transaction, run: Run, costUsd: number, ms: number): LimitName | null {
  const cost = toMicros(costUsd);
  if (cost === 0) return null;
  const b = budgetOf(tx, run.project_id);
  const over = (spent: number, limit: number | null) => limit !== null && spent + cost > toMicros(limit);
  if (over(toMicros(b.current_daily_spend_usd), b.limits.project_daily_usd)) return 'project_daily_usd';
  if (over(toMicros(b.current_monthly_spend_usd), b.limits.project_monthly_usd)) return 'project_monthly_usd';
  if (run.user_id) {
    const u = userTotals(tx, run, ms);
    if (over(u.daily, b.limits.user_daily_usd)) return 'user_daily_usd';
    if (over(u.monthly, b.limits.user_monthly_usd)) return 'user_monthly_usd';
  }
  // Prepaid credit cannot go below zero; invoiced projects are billed afterwards; a sandbox spends no credit.
  if (b.funding_mode === 'prepaid' && toMicros(b.credit_balance_usd) < cost) return 'credit_balance_usd';
  return null;
}

/** Adds a step's cost to the project's and the user's totals; lowers the credit unless the project is a free sandbox. */
export function accrue(tx: Transaction, run: Run, costUsd: number, ms: number): void {
  const cost = toMicros(costUsd);
  if (cost === 0) return;
  const b = budgetOf(tx, run.project_id);
  tx.put('budgets', {
    ...b,
    current_daily_spend_usd: fromMicros(toMicros(b.current_daily_spend_usd) + cost),
    current_monthly_spend_usd: fromMicros(toMicros(b.current_monthly_spend_usd) + cost),
    credit_balance_usd: b.funding_mode === 'free_sandbox' ? b.credit_balance_usd : fromMicros(toMicros(b.credit_balance_usd) - cost),
  });
  if (run.user_id) {
    const u = userTotals(tx, run, ms);
    tx.put('user_spend', {
      key: userKey(run),
      project_id: run.project_id,
      user_id: run.user_id,
      day: utcDay(ms),
      daily_usd: fromMicros(u.daily + cost),
      month: utcMonth(ms),
      monthly_usd: fromMicros(u.monthly + cost),
    });
  }
}

/** Midnight (UTC): the day's total starts again at zero, and on the first of a month the month's too. */
export function rollOver(tx: Transaction, projectId: string, ms: number): Budget | undefined {
  const b = tx.get('budgets', projectId);
  if (!b) return undefined;
  const newMonth = new Date(ms).getUTCDate() === 1;
  return tx.put('budgets', { ...b, current_daily_spend_usd: 0, current_monthly_spend_usd: newMonth ? 0 : b.current_monthly_spend_usd });
}

/** When a project's totals next need a reset: the next midnight while the day has spend, the next month otherwise. */
export function nextRollover(b: Budget | undefined, ms: number): number | null {
  if (!b) return null;
  if (b.current_daily_spend_usd !== 0) return nextUtcMidnight(ms);
  if (b.current_monthly_spend_usd === 0) return null;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
