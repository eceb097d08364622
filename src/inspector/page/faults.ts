// Faults: the active ones (with hits and what is left), a form that adds one, and a button that clears them all.
import { useState } from 'preact/hooks';
import { call, type S } from './api.js';
import { html, pretty } from './html.js';
import { useLoad, useNotice, usePoll } from './hooks.js';

type Fault = S['ControlFault'];

const METHODS = ['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function FaultsView({ active }: { active: boolean }) {
  const faults = useLoad(() => call<{ items: Fault[] }>('GET', '/_mock/faults'), []);
  // Hits and what is left change with the traffic.
  usePoll(async () => faults.reload(), 2000, active);
  const [notice, show] = useNotice();
  const [form, setForm] = useState({ method: 'GET', path: '/api/v3/**', status: '503', body: '', delay_ms: '', times: '1' });
  const field = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });

  const add = async (e: Event) => {
    e.preventDefault();
    const spec: Record<string, unknown> = { method: form.method, path: form.path };
    if (form.status.trim()) spec.status = Number(form.status);
    if (form.delay_ms.trim()) spec.delay_ms = Number(form.delay_ms);
    if (form.times.trim()) spec.times = Number(form.times);
    if (form.body.trim()) {
      try {
        spec.body = JSON.parse(form.body);
      } catch {
        show('The body is not valid JSON.', true);
        return;
      }
    }
    try {
      const f = await call<Fault>('POST', '/_mock/faults', spec);
      show(`Added fault ${f.id}: ${f.method} ${f.path}.`);
    } catch (err) {
      show((err as Error).message, true);
    }
    faults.reload();
  };
  const clear = async () => {
    try {
      const n = (await call<{ cleared: number }>('DELETE', '/_mock/faults')).cleared;
      show(`Cleared ${n} fault${n === 1 ? '' : 's'}.`);
    } catch (err) {
      show((err as Error).message, true);
    }
    faults.reload();
  };

  const items = faults.data?.items ?? [];
  return html`
    <section aria-labelledby="faults-title">
      <h2 id="faults-title">Faults</h2>
      ${faults.error && html`<p class="error" role="alert">${faults.error}</p>`}
      ${notice && html`<p class=${notice.error ? 'error' : 'notice'} role="status">${notice.text}</p>`}
      <div class="scroll">
        <table data-kind="faults">
          <caption class="sr-only">Active faults</caption>
          <thead><tr><th scope="col">Id</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Answers</th><th scope="col">Left</th><th scope="col">Hits</th></tr></thead>
          <tbody>
            ${items.map(
              (f) => html`<tr key=${f.id}>
                <td><code>${f.id}</code></td><td>${f.method}</td><td class="path"><code>${f.path}</code></td>
                <td>${[f.status !== undefined ? `status ${f.status}` : '', f.delay_ms ? `after ${f.delay_ms} ms` : ''].filter(Boolean).join(', ')}${f.body !== undefined ? html`<details><summary>body</summary><pre>${pretty(f.body)}</pre></details>` : ''}</td>
                <td>${f.remaining ?? 'until cleared'}</td><td>${f.hits}</td>
              </tr>`,
            )}
          </tbody>
        </table>
        ${faults.data && items.length === 0 && html`<p class="muted">No active faults.</p>`}
      </div>
      <div class="buttons"><button type="button" onClick=${clear} disabled=${items.length === 0}>Clear all faults</button></div>
      <form class="card grid-form" onSubmit=${add} aria-labelledby="fault-form-title">
        <h3 id="fault-form-title">Add a fault</h3>
        <label>Method <select name="method" value=${form.method} onChange=${field('method')}>${METHODS.map((m) => html`<option value=${m}>${m}</option>`)}</select></label>
        <label>Path (glob: * one segment, ** any) <input name="path" required value=${form.path} onInput=${field('path')} /></label>
        <label>Status <input name="status" type="number" min="100" max="599" value=${form.status} onInput=${field('status')} /></label>
        <label>Delay (ms) <input name="delay_ms" type="number" min="0" max="300000" value=${form.delay_ms} onInput=${field('delay_ms')} /></label>
        <label>Times (empty: until cleared) <input name="times" type="number" min="1" value=${form.times} onInput=${field('times')} /></label>
        <label class="full">Body (JSON, optional) <textarea name="body" rows="3" value=${form.body} onInput=${field('body')} placeholder='{"detail": {"reason_code": "unavailable", "message": "try later"}}'></textarea></label>
        <div class="full"><button type="submit">Add fault</button></div>
      </form>
    </section>
  `;
}
