// One project's records in pages (runs, approvals, users, jobs, releases): the control surface's keyset pages, a
// status filter where the records have one, and a run opened in full.
import { useEffect, useState } from 'preact/hooks';
import { call } from './api.js';
import { html, pretty, when } from './html.js';
import { useLoad } from './hooks.js';
import { inSpan, spanText, type Span } from './span.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a record as the control surface sent it: shown, never computed with
type Row = Record<string, any>;

export interface Kind {
  /** The route under /_mock/projects/{id}/. */
  path: 'runs' | 'approvals' | 'users' | 'jobs' | 'releases';
  label: string;
  statuses?: string[];
  columns: { label: string; value: (r: Row) => unknown; wide?: boolean }[];
  /** A row opens in full (runs). */
  opens?: boolean;
  /** When the record happened, for the Timeline's span (records without one are always shown). */
  at?: (r: Row) => string;
}

const id8 = (id: string | null | undefined) => (id ? html`<code title=${id}>${id.slice(0, 8)}</code>` : '—');
const status = (s: string) => html`<span class=${`pill st-${s}`}>${s}</span>`;
const usd = (n: number | undefined) => (n === undefined ? '—' : `$${n.toFixed(4)}`);

export const KINDS: Record<string, Kind> = {
  runs: {
    path: 'runs',
    label: 'Runs',
    statuses: ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled'],
    opens: true,
    at: (r) => r.created_at,
    columns: [
      { label: 'Run', value: (r) => id8(r.id) },
      { label: 'Status', value: (r) => status(r.status) },
      { label: 'Surface', value: (r) => r.surface, wide: true },
      { label: 'Mode', value: (r) => r.runtime_mode, wide: true },
      { label: 'Created', value: (r) => when(r.created_at) },
      { label: 'Cost', value: (r) => usd(r.cost_usd), wide: true },
    ],
  },
  approvals: {
    path: 'approvals',
    label: 'Approvals',
    statuses: ['pending', 'approved', 'denied', 'expired', 'cancelled'],
    at: (r) => r.requested_at,
    columns: [
      { label: 'Approval', value: (r) => html`<code>${r.approval_id}</code>` },
      { label: 'Status', value: (r) => status(r.status) },
      { label: 'Tool', value: (r) => r.tool_id, wide: true },
      { label: 'Run', value: (r) => id8(r.run_id), wide: true },
      { label: 'Expires', value: (r) => when(r.expires_at) },
    ],
  },
  users: {
    path: 'users',
    label: 'Users',
    columns: [
      { label: 'User', value: (r) => id8(r.id) },
      { label: 'Name', value: (r) => r.display_name ?? r.external_user_id ?? '—' },
      { label: 'Channel', value: (r) => r.preferred_channel, wide: true },
      { label: 'Last active', value: (r) => when(r.last_active_at) || '—' },
    ],
  },
  jobs: {
    path: 'jobs',
    label: 'Jobs',
    statuses: ['active', 'paused', 'completed'],
    columns: [
      { label: 'Job', value: (r) => r.name ?? id8(r.id) },
      { label: 'Status', value: (r) => status(r.status) },
      { label: 'Schedule', value: (r) => html`<code>${r.schedule?.cron ?? pretty(r.schedule)}</code>`, wide: true },
      { label: 'Next run', value: (r) => when(r.next_run_at) || '—' },
    ],
  },
  releases: {
    path: 'releases',
    label: 'Releases',
    columns: [
      { label: 'Generation', value: (r) => r.generation },
      { label: 'Release', value: (r) => id8(r.id) },
      { label: 'Targets', value: (r) => (r.targets?.length ? r.targets.join(', ') : '—') },
      { label: 'Created', value: (r) => when(r.created_at), wide: true },
    ],
  },
};

/** One kind of record of a project, a page at a time (Previous goes back through the cursors seen). */
export function Records({
  project,
  kind,
  initialStatus,
  openRun,
  span,
}: {
  project: string;
  kind: Kind;
  initialStatus?: string;
  openRun?: string;
  span?: Span | null;
}) {
  const [statusFilter, setStatus] = useState(initialStatus ?? '');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [open, setOpen] = useState<string | null>(openRun ?? null);
  useEffect(() => {
    setStatus(initialStatus ?? '');
    setCursors([undefined]);
    setOpen(openRun ?? null);
  }, [project, kind.path, initialStatus, openRun]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(
    // The status filter is one of the kind's own statuses (its list offers no other).
    () =>
      call('GET', `/_mock/projects/{project_id}/${kind.path}`, {
        path: { project_id: project },
        query: { status: (statusFilter || undefined) as never, cursor, limit: 20 },
      }),
    [project, kind.path, statusFilter, cursor],
  );
  const filterId = `filter-${kind.path}`;
  const items = ((page.data?.items ?? []) as Row[]).filter((r) => !kind.at || !span || inSpan(span, kind.at(r)));
  return html`
    <div class="records">
      <div class="toolbar">
        ${
          kind.statuses &&
          html`<label for=${filterId}>Status</label>
            <select id=${filterId} value=${statusFilter} onChange=${(e: Event) => (setStatus((e.target as HTMLSelectElement).value), setCursors([undefined]))}>
              <option value="">any</option>
              ${kind.statuses.map((s) => html`<option value=${s}>${s}</option>`)}
            </select>`
        }
        <button type="button" onClick=${page.reload}>Refresh</button>
        <button type="button" disabled=${cursors.length < 2} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous page</button>
        <button type="button" disabled=${!page.data?.next_cursor} onClick=${() => setCursors([...cursors, page.data!.next_cursor!])}>Next page</button>
        <span class="muted">page ${cursors.length}</span>
      </div>
      ${page.error && html`<p class="error" role="alert">${page.error}</p>`}
      ${
        span &&
        kind.at &&
        html`<p class="span-banner" data-span-rows=${items.length}>
          The Timeline's span, ${spanText(span)}: ${items.length} of this page's ${page.data?.items.length ?? 0} ${kind.label.toLowerCase()}.
        </p>`
      }
      <div class="scroll">
        <table data-kind=${kind.path}>
          <caption class="sr-only">
            ${kind.label}
          </caption>
          <thead>
            <tr>
              ${kind.columns.map((c) => html`<th scope="col" class=${c.wide ? 'wide' : ''}>${c.label}</th>`)}${kind.opens && html`<th scope="col"><span class="sr-only">Open</span></th>`}
            </tr>
          </thead>
          <tbody>
            ${items.map(
              (r) =>
                html`<tr key=${r.id} data-id=${r.approval_id ?? r.id}>
                  ${kind.columns.map((c) => html`<td class=${c.wide ? 'wide' : ''}>${c.value(r)}</td>`)}
                  ${kind.opens && html`<td><button type="button" aria-expanded=${open === r.id} aria-label=${`Details of run ${r.id}`} onClick=${() => setOpen(open === r.id ? null : r.id)}>Details</button></td>`}
                </tr>`,
            )}
          </tbody>
        </table>
        ${page.data && page.data.items.length === 0 && html`<p class="muted">None.</p>`}
      </div>
      ${open && html`<${RunDetail} project=${project} run=${open} onClose=${() => setOpen(null)} />`}
    </div>
  `;
}

function RunDetail({ project, run, onClose }: { project: string; run: string; onClose: () => void }) {
  const detail = useLoad(() => call('GET', '/_mock/projects/{project_id}/runs/{run_id}', { path: { project_id: project, run_id: run } }), [project, run]);
  const r = detail.data;
  return html`
    <section class="detail" aria-labelledby="run-title">
      <div class="detail-head">
        <h4 id="run-title">Run <code>${run}</code></h4>
        <button type="button" onClick=${onClose}>Close</button>
      </div>
      ${detail.error && html`<p class="error" role="alert">${detail.error}</p>`}
      ${
        r &&
        html`
          <dl class="facts">
            <dt>Status</dt>
            <dd>${status(r.status)}</dd>
            <dt>Surface</dt>
            <dd>${r.surface}</dd>
            <dt>Mode</dt>
            <dd>${r.runtime_mode}</dd>
            <dt>User</dt>
            <dd>${r.user_id ?? '—'}</dd>
            <dt>Release</dt>
            <dd>${r.release_id ?? '—'}</dd>
            <dt>Created</dt>
            <dd>${when(r.created_at)}</dd>
            <dt>Cost</dt>
            <dd>${usd(r.cost_usd)}</dd>
          </dl>
          <h5>Steps</h5>
          ${
            !r.steps?.length
              ? html`<p class="muted">None.</p>`
              : html`<ol class="steps">
                  ${r.steps.map((s: Row) => html`<li>${s.name} ${status(s.status)} <span class="muted">${s.step_type}</span></li>`)}
                </ol>`
          }
          <h5>Approvals</h5>
          ${
            r.approvals.length === 0
              ? html`<p class="muted">None.</p>`
              : html`<ul>
                  ${r.approvals.map((a: Row) => html`<li><code>${a.approval_id}</code> ${status(a.status)} expires ${when(a.expires_at)}</li>`)}
                </ul>`
          }
          <h5>Events</h5>
          <pre>${pretty(r.events ?? [])}</pre>
          <h5>Result</h5>
          <pre>${pretty(r.result ?? {})}</pre>
        `
      }
    </section>
  `;
}
