// The inspector page: a header with the mock clock, one button per section and the sandbox picker, and the sections
// (each mounted the first time it is shown and kept, so the journal keeps its rows; all mounted afresh when another
// sandbox is picked). Asks for the control token when the mock wants one.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, canPick, forgetToken, needsToken, onTokenNeeded, pickSandbox, pickedSandbox, setToken, shownSandbox, storedToken } from './api.js';
import { html, when } from './html.js';
import { useLoad, usePoll } from './hooks.js';
import { JournalView } from './journal.js';
import { StateView } from './state.js';
import { ClockView } from './clock.js';
import { FaultsView } from './faults.js';
import { CoverageView } from './coverage.js';
import { ClientReportView } from './client-report.js';
import { DriftView } from './drift.js';
import { MetricsView } from './metrics.js';
import { AdminView } from './admin.js';
import { SandboxPicker } from './sandboxes.js';
import { TimelineView } from './timeline.js';
import { onOpen } from './span.js';
import './style.css';

const SECTIONS = [
  ['requests', 'Requests'],
  ['timeline', 'Timeline'],
  ['state', 'State'],
  ['clock', 'Clock & simulation'],
  ['faults', 'Faults'],
  ['coverage', 'Coverage'],
  ['client', 'Client report'],
  ['drift', 'Drift'],
  ['metrics', 'Metrics'],
  ['admin', 'Reset & fixtures'],
] as const;
type Section = (typeof SECTIONS)[number][0];

const fromHash = (): Section => SECTIONS.find(([id]) => `#${id}` === location.hash)?.[0] ?? 'requests';

function TokenForm() {
  const [value, setValue] = useState('');
  const wrong = storedToken() !== null;
  return html`
    <form class="card token" onSubmit=${(e: Event) => (e.preventDefault(), value && setToken(value))}>
      <h2>Control token</h2>
      <p>
        This mock runs with <code>--control-token</code>: every /_mock call needs it.${wrong ? ' The token given before was refused.' : ''} It is kept in this
        tab only (sessionStorage) and sent as the <code>X-Mock-Control-Token</code> header, never in a URL.
      </p>
      <label for="control-token">Control token</label>
      <input id="control-token" type="password" autocomplete="off" value=${value} onInput=${(e: Event) => setValue((e.target as HTMLInputElement).value)} />
      <button type="submit">Use token</button>
    </form>
  `;
}

/** The header: which sandbox is shown (if one is), and the clock, loaded on every change made from the page and every 2 s (a running clock moves). */
function Header() {
  const [tick, setTick] = useState(0);
  usePoll(async () => setTick((t) => t + 1), 2000);
  const clock = useLoad(() => call('GET', '/_mock/clock'), [tick]).data;
  return html`
    <header class="top">
      <h1>
        project-runtime-mock <span class="muted">inspector</span>
        ${shownSandbox() && html`<span class="muted" data-shown-sandbox=${shownSandbox()}> · sandbox <code>${shownSandbox()}</code></span>`}
      </h1>
      <p class="clock" aria-live="off">
        Mock clock: <strong>${clock ? when(clock.now) : '…'}</strong> ${clock && (clock.frozen_at ? '(frozen)' : '(running)')}
      </p>
    </header>
  `;
}

function App() {
  const [section, setSection] = useState<Section>(fromHash());
  const [seen, setSeen] = useState<Set<Section>>(new Set([fromHash()]));
  const [tokenWanted, setTokenWanted] = useState(needsToken());
  const [journalKey, setJournalKey] = useState(0);
  const [sandbox, setSandbox] = useState(pickedSandbox());
  const pick = (id: string | null) => {
    pickSandbox(id);
    setSandbox(pickedSandbox());
  };
  useEffect(() => onTokenNeeded(() => setTokenWanted(needsToken())), []);
  // A click on the Timeline opens a request or a run: its section shows (and mounts, if it had not been shown).
  useEffect(() => onOpen((o) => go(o.section)), []);
  useEffect(() => {
    const onHash = () => go(fromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const go = (id: Section) => {
    setSection(id);
    setSeen((s) => new Set(s).add(id));
    if (location.hash !== `#${id}`) history.replaceState(null, '', `#${id}`);
  };

  const body = (id: Section) => {
    switch (id) {
      case 'requests':
        return html`<${JournalView} key=${journalKey} active=${section === 'requests'} />`;
      case 'timeline':
        return html`<${TimelineView} active=${section === 'timeline'} />`;
      case 'state':
        return html`<${StateView} />`;
      case 'clock':
        return html`<${ClockView} />`;
      case 'faults':
        return html`<${FaultsView} active=${section === 'faults'} />`;
      case 'coverage':
        return html`<${CoverageView} />`;
      case 'client':
        return html`<${ClientReportView} />`;
      case 'drift':
        return html`<${DriftView} />`;
      case 'metrics':
        return html`<${MetricsView} />`;
      case 'admin':
        return html`<${AdminView} onReset=${() => setJournalKey((k) => k + 1)} />`;
    }
  };

  return html`
    <${Header} key=${sandbox ?? ''} />
    <nav class="sections" aria-label="Sections">
      ${SECTIONS.map(([id, label]) => html`<button type="button" aria-current=${section === id ? 'page' : undefined} onClick=${() => go(id)}>${label}</button>`)}
      ${storedToken() && html`<button type="button" class="quiet" onClick=${() => (forgetToken(), location.reload())}>Forget token</button>`}
      ${canPick() && html`<${SandboxPicker} key=${sandbox ?? ''} picked=${sandbox} onPick=${pick} />`}
    </nav>
    ${tokenWanted && html`<${TokenForm} />`}
    <main key=${sandbox ?? ''}>
      ${SECTIONS.map(([id]) => (seen.has(id) ? html`<div key=${id} class="section" hidden=${section !== id}>${body(id)}</div>` : null))}
    </main>
  `;
}

render(html`<${App} />`, document.getElementById('app')!);
