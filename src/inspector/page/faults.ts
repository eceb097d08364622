// Faults: the active ones (what each does, what is left), a form that adds one of every kind, and a button that clears them all.
import { useState } from 'preact/hooks';
import { call } from './api.js';
import { html, pretty } from './html.js';
import { useLoad, useNotice, usePoll } from './hooks.js';
import { DELAYS, EMPTY_FORM, FAULT_KINDS, PACED_TRANSPORT, TRANSPORTS, describeFault, faultSpec, type FaultForm } from './fault-form.js';

const METHODS = ['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function FaultsView({ active }: { active: boolean }) {
  const faults = useLoad(() => call('GET', '/_mock/faults'), []);
  // Hits and what is left change with the traffic.
  usePoll(async () => faults.reload(), 2000, active);
  const [notice, show] = useNotice();
  const [form, setForm] = useState<FaultForm>(EMPTY_FORM);
  const field = (k: keyof FaultForm) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  const input = (k: keyof FaultForm, label: string, attrs: Record<string, string> = {}) =>
    html`<label>${label} <input name=${k} type="number" ...${attrs} value=${form[k]} onInput=${field(k)} /></label>`;

  const add = async (e: Event) => {
    e.preventDefault();
    const made = faultSpec(form);
    if ('error' in made) {
      show(made.error, true);
      return;
    }
    try {
      const f = await call('POST', '/_mock/faults', { body: made.spec });
      show(`Added fault ${f.id}: ${f.method} ${f.path}.`);
    } catch (err) {
      show((err as Error).message, true);
    }
    faults.reload();
  };
  const clear = async () => {
    try {
      const n = (await call('DELETE', '/_mock/faults')).cleared;
      show(`Cleared ${n} fault${n === 1 ? '' : 's'}.`);
    } catch (err) {
      show((err as Error).message, true);
    }
    faults.reload();
  };

  const items = faults.data?.items ?? [];
  const k = form.kind;
  return html`
    <section aria-labelledby="faults-title">
      <h2 id="faults-title">Faults</h2>
      ${faults.error && html`<p class="error" role="alert">${faults.error}</p>`}
      ${notice && html`<p class=${notice.error ? 'error' : 'notice'} role="status">${notice.text}</p>`}
      <div class="scroll">
        <table data-kind="faults">
          <caption class="sr-only">
            Active faults
          </caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Method</th>
              <th scope="col">Path</th>
              <th scope="col">Answers</th>
              <th scope="col">Left</th>
              <th scope="col">Hits</th>
              <th scope="col">Matched</th>
            </tr>
          </thead>
          <tbody>
            ${items.map(
              (f) =>
                html`<tr key=${f.id}>
                  <td><code>${f.id}</code></td>
                  <td>${f.method}</td>
                  <td class="path"><code>${f.path}</code></td>
                  <td>
                    ${describeFault(f as never)}${
                      f.body !== undefined
                        ? html`<details>
                            <summary>body</summary>
                            <pre>${pretty(f.body)}</pre>
                          </details>`
                        : ''
                    }${
                      f.match
                        ? html`<details>
                            <summary>match</summary>
                            <pre>${pretty(f.match)}</pre>
                          </details>`
                        : ''
                    }
                  </td>
                  <td>${f.remaining ?? 'until cleared'}</td>
                  <td>${f.hits}</td>
                  <td>${f.matched}</td>
                </tr>`,
            )}
          </tbody>
        </table>
        ${faults.data && items.length === 0 && html`<p class="muted">No active faults.</p>`}
      </div>
      <div class="buttons"><button type="button" onClick=${clear} disabled=${items.length === 0}>Clear all faults</button></div>
      <form class="card grid-form" onSubmit=${add} aria-labelledby="fault-form-title">
        <h3 id="fault-form-title">Add a fault</h3>
        <label
          >Kind
          <select name="kind" value=${k} onChange=${field('kind')}>
            ${FAULT_KINDS.map(([v, t]) => html`<option value=${v}>${t}</option>`)}
          </select></label
        >
        <label
          >Method
          <select name="method" value=${form.method} onChange=${field('method')}>
            ${METHODS.map((m) => html`<option value=${m}>${m}</option>`)}
          </select></label
        >
        <label>Path (glob: * one segment, ** any) <input name="path" required value=${form.path} onInput=${field('path')} /></label>
        <label>Operation id (optional) <input name="operation" value=${form.operation} onInput=${field('operation')} placeholder="cancelRun" /></label>
        <label>Principal id (optional) <input name="principal" value=${form.principal} onInput=${field('principal')} /></label>
        <label class="full"
          >Match query, headers, body (JSON subsets, optional)
          <textarea
            name="match"
            rows="2"
            value=${form.match}
            onInput=${field('match')}
            placeholder='{"query": {"limit": "1"}, "headers": {"x-client": "mobile"}}'
          ></textarea>
        </label>
        ${k === 'status' && input('status', 'Status', { min: '100', max: '599' })}
        ${k === 'rate_limit' && html`${input('requests', 'Requests allowed', { min: '1' })}${input('per_ms', 'Per window (ms, mock clock)', { min: '1' })}`}
        ${
          k === 'transport' &&
          html`<label
              >Transport
              <select name="transport" value=${form.transport} onChange=${field('transport')}>
                ${TRANSPORTS.map((t) => html`<option value=${t}>${t}</option>`)}
              </select></label
            >
            ${form.transport === PACED_TRANSPORT && input('bytes_per_s', 'Bytes per second', { min: '1' })}`
        }
        <label
          >Delay
          <select name="delay" value=${form.delay} onChange=${field('delay')}>
            ${DELAYS.map((d) => html`<option value=${d}>${d}</option>`)}
          </select></label
        >
        ${form.delay === 'fixed' && input('delay_ms', 'Delay (ms)', { min: '0', max: '300000' })}
        ${form.delay === 'uniform' && html`${input('min_ms', 'Minimum (ms)', { min: '0' })}${input('max_ms', 'Maximum (ms)', { min: '0' })}`}
        ${form.delay === 'lognormal' && html`${input('median_ms', 'Median (ms)', { min: '1' })}${input('p99_ms', '99th percentile (ms)', { min: '1' })}`}
        ${input('times', 'Times (empty: until cleared)', { min: '1' })}
        ${k !== 'rate_limit' && html`${input('after', 'Skip the first N matches', { min: '0' })}${input('probability', 'Probability (0-1)', { min: '0', max: '1', step: 'any' })}`}
        ${k === 'status' && html`<label class="full">Body (JSON, optional) <textarea name="body" rows="3" value=${form.body} onInput=${field('body')} placeholder='{"detail": {"reason_code": "unavailable", "message": "try later"}}'></textarea></label>`}
        ${(k === 'status' || k === 'rate_limit') && html`<label class="full">Response headers (JSON, optional) <textarea name="headers" rows="2" value=${form.headers} onInput=${field('headers')} placeholder='{"Retry-After": "5"}'></textarea></label>`}
        <div class="full"><button type="submit">Add fault</button></div>
      </form>
    </section>
  `;
}
