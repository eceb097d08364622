// The mock clock and the simulation: now, freeze, advance by presets, the mode, the pending events, step and run.
import { useState } from 'preact/hooks';
import { call, stateChanged, type S } from './api.js';
import { html, when } from './html.js';
import { useLoad, useNotice } from './hooks.js';
import { offsetText, trafficText } from './format.js';

type SimEvent = S['ControlSimulationStep']['executed'] & {};
type Simulation = S['ControlSimulation'];

const MINUTE = 60_000;
/** The advance buttons: label and milliseconds. */
const PRESETS: [string, number][] = [
  ['1 minute', MINUTE],
  ['1 hour', 60 * MINUTE],
  ['1 day', 24 * 60 * MINUTE],
  ['1 week', 7 * 24 * 60 * MINUTE],
];

const subject = (e: SimEvent) =>
  e.run_id
    ? `run ${e.run_id.slice(0, 8)}`
    : e.job_id
      ? `job ${e.job_id.slice(0, 8)}`
      : e.approval_id
        ? `approval ${e.approval_id}`
        : e.project_id
          ? `project ${e.project_id.slice(0, 8)}`
          : '—';

/** The retention line: how long simulated runs stay after they ended. */
const retention = (days: number) => (days === 0 ? 'simulated runs kept' : `simulated runs removed ${days} ${days === 1 ? 'day' : 'days'} after they end`);

export function ClockView() {
  const clock = useLoad(() => call('GET', '/_mock/clock'), []);
  const sim = useLoad(() => call('GET', '/_mock/simulation'), []);
  const [notice, show] = useNotice();
  const [freezeAt, setFreezeAt] = useState('');
  const [mode, setMode] = useState<string>('');
  const [busy, setBusy] = useState(false);

  /** Runs an action, says what it did, and lets every view reload. */
  const act = async (what: () => Promise<string>) => {
    setBusy(true);
    try {
      show(await what());
    } catch (e) {
      show((e as Error).message, true);
    } finally {
      setBusy(false);
      stateChanged();
    }
  };
  const advance = (label: string, ms: number) =>
    act(async () => `Advanced ${label}: now ${when((await call('POST', '/_mock/clock', { body: { advance_ms: ms } })).now)}.`);
  const freeze = (iso: string) => act(async () => `Frozen at ${when((await call('POST', '/_mock/clock', { body: { now: iso } })).now)}.`);
  const step = () =>
    act(async () => {
      const r = await call('POST', '/_mock/simulation/step');
      return r.executed
        ? `Stepped: ${r.executed.kind} of ${subject(r.executed)} at ${when(r.executed.at)}; ${r.pending_count} pending.`
        : 'Nothing pending: no step taken.';
    });
  const runIdle = () =>
    act(async () => {
      const r = await call('POST', '/_mock/simulation/run', { body: { idle: true } });
      return `Ran ${r.executed} events until idle: now ${when(r.now)}, ${r.pending_count} pending.`;
    });
  const applyMode = () =>
    act(async () => `Mode ${(await call('PUT', '/_mock/simulation', { body: { mode: (mode || sim.data?.mode) as Simulation['mode'] } })).mode}.`);

  const c = clock.data;
  const s = sim.data;
  return html`
    <section aria-labelledby="clock-title">
      <h2 id="clock-title">Clock and simulation</h2>
      ${(clock.error || sim.error) && html`<p class="error" role="alert">${clock.error ?? sim.error}</p>`}
      ${notice && html`<p class=${notice.error ? 'error' : 'notice'} role="status">${notice.text}</p>`}
      <div class="cards">
        <div class="card">
          <h3>Clock</h3>
          <dl class="facts">
            <dt>Now</dt>
            <dd data-clock-now=${c?.now}>${when(c?.now)}</dd>
            <dt>State</dt>
            <dd>${c ? (c.frozen_at ? 'frozen' : 'running') : ''}</dd>
            <dt>Offset</dt>
            <dd data-offset-ms=${c?.offset_ms} title=${c ? `${c.offset_ms} ms` : ''}>${c ? offsetText(c.offset_ms) : ''}</dd>
          </dl>
          <div class="buttons" role="group" aria-label="Advance the clock">
            ${PRESETS.map(([label, ms]) => html`<button type="button" disabled=${busy} onClick=${() => advance(label, ms)}>+ ${label}</button>`)}
          </div>
          <div class="buttons">
            <button type="button" disabled=${busy || !c} onClick=${() => freeze(c!.now)}>Freeze now</button>
          </div>
          <form class="inline" onSubmit=${(e: Event) => (e.preventDefault(), freezeAt && freeze(`${freezeAt}Z`))}>
            <label for="freeze-at">Freeze at (UTC)</label>
            <input id="freeze-at" type="datetime-local" step="1" value=${freezeAt} onInput=${(e: Event) => setFreezeAt((e.target as HTMLInputElement).value)} />
            <button type="submit" disabled=${busy || !freezeAt}>Freeze</button>
          </form>
        </div>
        <div class="card">
          <h3>Simulation</h3>
          <dl class="facts">
            <dt>Mode</dt>
            <dd data-sim-mode=${s?.mode}>${s?.mode}</dd>
            <dt>Clock</dt>
            <dd data-sim-clock=${s?.clock}>${s?.clock ?? ''}</dd>
            <dt>Speed</dt>
            <dd data-sim-speed=${s?.speed}>${s ? `${s.speed}× real time` : ''}</dd>
            <dt>Traffic</dt>
            <dd data-sim-traffic=${s ? s.traffic.length : undefined}>${s ? trafficText(s.traffic) : ''}</dd>
            <dt>Retention</dt>
            <dd data-retention-days=${s?.retention_days}>${s ? retention(s.retention_days) : ''}</dd>
            <dt>Pending</dt>
            <dd data-pending=${s?.pending_count}>${s?.pending_count ?? ''} events</dd>
          </dl>
          <form class="inline" onSubmit=${(e: Event) => (e.preventDefault(), applyMode())}>
            <label for="sim-mode">Mode</label>
            <select id="sim-mode" value=${mode || s?.mode || ''} onChange=${(e: Event) => setMode((e.target as HTMLSelectElement).value)}>
              <option value="auto">auto: events fire as the clock reaches them</option>
              <option value="step">step: only Step and Run fire them</option>
              <option value="off">off</option>
            </select>
            <button type="submit" disabled=${busy}>Set mode</button>
          </form>
          <div class="buttons">
            <button type="button" disabled=${busy} onClick=${step}>Step</button>
            <button type="button" disabled=${busy} onClick=${runIdle}>Run until idle</button>
          </div>
        </div>
      </div>
      <h3>Next pending events</h3>
      <div class="scroll">
        <table data-kind="pending">
          <caption class="sr-only">
            Pending simulated events in time order
          </caption>
          <thead>
            <tr>
              <th scope="col">Due</th>
              <th scope="col">Kind</th>
              <th scope="col">Concerns</th>
            </tr>
          </thead>
          <tbody>
            ${(s?.pending ?? []).slice(0, 25).map(
              (e) =>
                html`<tr>
                  <td>${when(e.at)}</td>
                  <td>${e.kind}</td>
                  <td>${subject(e)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
        ${s && s.pending.length === 0 && html`<p class="muted">Nothing pending.</p>`}
      </div>
    </section>
  `;
}
