// A fixed mix of v3 and clock requests against the demo (reads, writes that mint ids and tokens, refusals, faults, webhooks).
import { DEMO } from './demo.js';

export interface MixedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

const P = DEMO.projects.support;
const owner = { Authorization: `Bearer ${DEMO.tokens.owner}` };
const operator = { Authorization: `Bearer ${DEMO.tokens.operator}` };

/** `n` requests, the same list every time; `refresh` is a refresh token valid when the list starts. */
export function mixedRequests(n: number, refresh: string): MixedRequest[] {
  const out: MixedRequest[] = [];
  const runs = Object.values(DEMO.runs);
  for (let i = 0; i < n; i++) {
    const run = runs[i % runs.length];
    const kinds: (() => MixedRequest)[] = [
      () => ({ method: 'GET', path: `/api/v3/projects/${P}/runs/${run}`, headers: owner }),
      () => ({ method: 'POST', path: `/api/v3/projects/${P}/runs/${run}/retry`, headers: operator, body: {} }),
      () => ({
        method: 'POST',
        path: `/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`,
        headers: { 'X-Chatapp-Secret-Token': DEMO.chatSecret },
        body: { update_id: 9000 + i, message: { from: { id: 100 + (i % 7), display_name: `U${i % 7}` }, text: `hello ${i}` } },
      }),
      () => ({ method: 'GET', path: `/api/v3/projects/${P}/jobs?limit=${1 + (i % 5)}`, headers: owner }),
      () => ({ method: 'POST', path: '/api/v3/auth/token', headers: {}, body: { grant_type: 'refresh_token', refresh_token: refresh } }),
      () => ({ method: 'POST', path: `/api/v3/projects/${P}/runs/${run}/cancel`, headers: operator, body: {} }),
      () => ({ method: 'GET', path: `/api/v3/projects/${P}/approvals?status=pending`, headers: owner }),
      () => ({
        method: 'PUT',
        path: `/api/v3/projects/${P}/budget`,
        headers: owner,
        body: { funding_mode: 'invoiced', user_daily_usd: 3, project_monthly_usd: 1000 + i },
      }),
      () => ({ method: 'POST', path: '/_mock/clock', headers: {}, body: { advance_ms: 7_000 + i * 13 } }),
      () => ({ method: 'GET', path: `/api/v3/projects/${P}/users?limit=3`, headers: owner }),
      () => ({ method: 'GET', path: `/api/v3/projects/${P}/runs/00000000-0000-4000-8000-00000000000${i % 10}`, headers: owner }),
      () => ({ method: 'POST', path: `/api/v3/projects/${P}/runs/${run}/cancel`, headers: {}, body: {} }),
      () => ({ method: 'GET', path: `/api/v3/projects/${P}/releases`, headers: owner }),
    ];
    out.push(kinds[(i * 7 + (i >> 3)) % kinds.length]());
  }
  return out;
}
