// Shadow mode in the inspector: where the target answered differently (grouped by operation and field), the target's
// state and what was dropped; and one request's differences in its journal detail.
import { call } from './api.js';
import { html, pretty, when } from './html.js';
import { useLoad } from './hooks.js';

export type DriftItem = { field: string; mock?: unknown; target?: unknown };

/** A value as the drift tables show it: JSON, or `absent` for a side that had none. */
const shown = (v: unknown) => (v === undefined ? html`<span class="muted">absent</span>` : html`<code>${pretty(v)}</code>`);

/** One request's differences (its journal entry's `drift`). */
export function DriftItems({ items }: { items: DriftItem[] }) {
  return html`
    <h4>Drift from the shadow target</h4>
    <div class="scroll">
      <table class="drift-items">
        <caption class="sr-only">
          Differences of this request
        </caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Mock</th>
            <th scope="col">Target</th>
          </tr>
        </thead>
        <tbody>
          ${items.map(
            (d) =>
              html`<tr>
                <th scope="row"><code>${d.field}</code></th>
                <td>${shown(d.mock)}</td>
                <td>${shown(d.target)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  `;
}

export function DriftView() {
  const report = useLoad(() => call('GET', '/_mock/drift'), []);
  const r = report.data;
  const t = r?.target;
  return html`
    <section aria-labelledby="drift-title">
      <h2 id="drift-title">Drift</h2>
      <p class="muted">
        With <code>--shadow URL</code> every v3 GET is also sent to a target (a staging service) and the two answers are compared. Differences are grouped by
        operation and field; each example opens its request in the journal. Reset clears it.
      </p>
      <div class="toolbar"><button type="button" onClick=${report.reload}>Refresh</button></div>
      ${report.error && html`<p class="error" role="alert">${report.error}</p>`}
      ${r && !r.enabled && html`<p class="summary" data-enabled="false">Shadow mode is off: start the mock with <code>--shadow URL</code>.</p>`}
      ${
        r &&
        t &&
        html`
          <p class="summary" data-state=${t.state}>
            ${`Target ${t.url}: `}<strong>${t.state}</strong>${t.since ? ` since ${when(t.since)}` : ''}${t.last_error ? ` (last error ${t.last_error})` : ''}.
          </p>
          <ul class="summary" data-drifted=${r.drifted}>
            <li>compared: <strong>${r.compared}</strong></li>
            <li>same: <strong>${r.same}</strong></li>
            <li>with drift: <strong>${r.drifted}</strong></li>
            <li>dropped: ${r.dropped.queue_full + r.dropped.rate_limited + r.dropped.target_down}</li>
            <li>unreachable: ${r.unreachable}</li>
            <li>pending: ${r.pending}</li>
          </ul>
          ${
            r.groups.length === 0
              ? html`<p class="muted">No drift so far.</p>`
              : html`<div class="scroll">
                  <table class="drift">
                    <caption class="sr-only">
                      Drift by cause
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Field</th>
                        <th scope="col">Mock → target</th>
                        <th scope="col">Operations</th>
                        <th scope="col">Count</th>
                        <th scope="col">First requests</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${r.groups.map(
                        (g) =>
                          html`<tr key=${`${g.level} ${g.field} ${shown(g.mock)} ${shown(g.target)}`} data-field=${g.field} data-level=${g.level}>
                            <th scope="row"><code>${g.field}</code>${g.level === 'warning' ? html` <span class="muted">(warning: optional)</span>` : ''}</th>
                            <td>${shown(g.mock)} → ${shown(g.target)}</td>
                            <td>${g.operations.map((o, i) => html`${i > 0 ? ', ' : ''}<code>${o}</code>`)}</td>
                            <td class="num">${g.count}</td>
                            <td>
                              <ul class="examples">
                                ${g.examples.map((e) => html`<li>#${e.request_id ?? '?'} ${e.operation}</li>`)}
                              </ul>
                            </td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </div>`
          }
          ${r.ungrouped > 0 && html`<p class="muted">${r.ungrouped} differences past the byte bound were counted, not grouped.</p>`}
        `
      }
    </section>
  `;
}
