// State per project: pick a project, see it at a glance (budget, counts by status, targets), then page through its
// runs, approvals, users, jobs and releases. Never the whole state at once: every list is a page of the control surface.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, onStateChanged, type S } from './api.js';
import { html } from './html.js';
import { useLoad } from './hooks.js';
import { KINDS, Records } from './records.js';
import { onOpen, take, useSpan } from './span.js';

type Project = S['ControlProjectPage']['items'][number];

const PROJECT_KEY = 'project-runtime-mock.project';

export function StateView() {
  const [projects, setProjects] = useState<Project[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string>(sessionStorage.getItem(PROJECT_KEY) ?? '');
  // The latest choice, for loads started from an older render (a state change).
  const chosen = useRef(selected);
  const [tab, setTab] = useState<keyof typeof KINDS>('runs');
  const [runStatus, setRunStatus] = useState<string | undefined>(undefined);

  const more = async (cursor?: string) => {
    try {
      const page = await call('GET', '/_mock/projects', { query: { limit: 100, cursor } });
      setProjects((old) => (cursor ? [...old, ...page.items] : page.items));
      setNext(page.next_cursor);
      setError(null);
      // No choice yet (or it is gone): open on the first project in the order the state holds them (the fixture's).
      if (!cursor && !page.items.some((p) => p.id === chosen.current)) {
        const first = (await call('GET', '/_mock/projects', { query: { limit: 1, order: 'stored' } })).items[0]?.id ?? page.items[0]?.id;
        if (first && !page.items.some((p) => p.id === chosen.current)) choose(first);
      }
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const [openRun, setOpenRun] = useState<string | undefined>(undefined);
  const span = useSpan();
  // A fixture load or a reset may bring other projects.
  useEffect(() => {
    void more();
    return onStateChanged(() => void more());
  }, []);
  // A click on the Timeline opens a run here: its project, the runs, the run in full.
  useEffect(() => {
    const show = (o: { project: string; run: string }) => {
      choose(o.project);
      setTab('runs');
      setOpenRun(o.run);
    };
    const first = take('state');
    if (first) show(first);
    return onOpen((o) => o.section === 'state' && show(o));
  }, []);

  const choose = (id: string) => {
    chosen.current = id;
    setSelected(id);
    sessionStorage.setItem(PROJECT_KEY, id);
    setRunStatus(undefined);
    setOpenRun(undefined);
  };

  return html`
    <section aria-labelledby="state-title">
      <h2 id="state-title">State</h2>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <div class="toolbar">
        <label for="project-select">Project</label>
        <select id="project-select" value=${selected} onChange=${(e: Event) => choose((e.target as HTMLSelectElement).value)}>
          ${projects.map((p) => html`<option value=${p.id}>${p.name}${p.status === 'archived' ? ' (archived)' : ''}</option>`)}
        </select>
        ${next && html`<button type="button" onClick=${() => more(next)}>More projects</button>`}
      </div>
      ${
        selected &&
        html`
          <${ProjectOverview} project=${selected} onRuns=${(s: string) => (setTab('runs'), setRunStatus(s))} />
          <div class="subtabs" role="group" aria-label="Records">
            ${Object.entries(KINDS).map(
              ([k, kind]) =>
                html`<button type="button" aria-pressed=${tab === k} onClick=${() => (setTab(k as keyof typeof KINDS), setRunStatus(undefined))}>
                  ${kind.label}
                </button>`,
            )}
          </div>
          <${Records}
            project=${selected}
            kind=${KINDS[tab]}
            initialStatus=${tab === 'runs' ? runStatus : undefined}
            openRun=${tab === 'runs' ? openRun : undefined}
            span=${span}
          />
        `
      }
    </section>
  `;
}

const money = (n: number | null | undefined) => (n === null || n === undefined ? '—' : `$${n.toFixed(2)}`);

function ProjectOverview({ project, onRuns }: { project: string; onRuns: (status: string) => void }) {
  const o = useLoad(() => call('GET', '/_mock/projects/{project_id}', { path: { project_id: project } }), [project]);
  if (o.error) return html`<p class="error" role="alert">${o.error}</p>`;
  const d = o.data;
  if (!d) return html`<p class="muted">Loading…</p>`;
  const b = d.budget;
  return html`
    <div class="cards" data-project=${d.project.id}>
      <div class="card">
        <h3>${d.project.name}</h3>
        <dl class="facts">
          <dt>Status</dt>
          <dd>${d.project.status}</dd>
          <dt>Slug</dt>
          <dd><code>${d.project.slug}</code></dd>
          <dt>Id</dt>
          <dd><code>${d.project.id}</code></dd>
          <dt>Live</dt>
          <dd>${d.targets.live ? html`<code>${d.targets.live.slice(0, 8)}</code>` : '—'}</dd>
          <dt>Candidate</dt>
          <dd>${d.targets.candidate ? html`<code>${d.targets.candidate.slice(0, 8)}</code>` : '—'}</dd>
          <dt>Users</dt>
          <dd>${d.users}</dd>
          <dt>Releases</dt>
          <dd>${d.releases}</dd>
        </dl>
      </div>
      <div class="card">
        <h3>Budget</h3>
        <dl class="facts">
          <dt>Funding</dt>
          <dd>${b.funding_mode}</dd>
          <dt>Balance</dt>
          <dd>${money(b.credit_balance_usd)}</dd>
          <dt>Today</dt>
          <dd>${money(b.current_daily_spend_usd)} of ${money(b.limits.project_daily_usd)}</dd>
          <dt>This month</dt>
          <dd>${money(b.current_monthly_spend_usd)} of ${money(b.limits.project_monthly_usd)}</dd>
          <dt>Per user</dt>
          <dd>${money(b.limits.user_daily_usd)} a day, ${money(b.limits.user_monthly_usd)} a month</dd>
          <dt>Config epoch</dt>
          <dd>${b.runtime_config_epoch}</dd>
        </dl>
      </div>
      <div class="card">
        <h3>Runs by status</h3>
        <ul class="counts">
          ${Object.entries(d.runs).map(
            ([s, n]) =>
              html`<li>
                <button type="button" class="link" onClick=${() => onRuns(s)} aria-label=${`${n} ${s} runs: show them`}>
                  <span class=${`pill st-${s}`}>${s}</span> ${n}
                </button>
              </li>`,
          )}
        </ul>
        <h3>Approvals</h3>
        <ul class="counts" data-counts="approvals">
          ${Object.entries(d.approvals).map(([s, n]) => html`<li><span class=${`pill st-${s}`}>${s}</span> ${n}</li>`)}
        </ul>
        <h3>Jobs</h3>
        <ul class="counts">
          ${Object.entries(d.jobs).map(([s, n]) => html`<li><span class=${`pill st-${s}`}>${s}</span> ${n}</li>`)}
        </ul>
      </div>
    </div>
    <p><button type="button" onClick=${o.reload}>Refresh overview</button></p>
  `;
}
