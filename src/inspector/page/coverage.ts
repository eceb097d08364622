// Coverage: first what to do next (the gaps the coverage gate names, each with the calls that provoke it), then the
// full report as a table, folded: per v3 operation, what the traffic exercised and, highlighted, what it did not.
import { call } from './api.js';
import { html } from './html.js';
import { useLoad } from './hooks.js';

/** Once opened, the full report stays open in this tab (another sandbox, a reload). */
const FULL_KEY = 'project-runtime-mock.coverage-full';

const list = (xs: (string | number)[], cls: string) =>
  xs.length
    ? html`<ul class=${`tags ${cls}`}>
        ${xs.map((x) => html`<li>${x}</li>`)}
      </ul>`
    : html`<span class="muted">none</span>`;

export function CoverageView() {
  const report = useLoad(() => call('GET', '/_mock/coverage'), []);
  const next = useLoad(() => call('GET', '/_mock/coverage/next'), [report.data]);
  const r = report.data;
  const n = next.data;
  const tally = (label: string, t: { total: number; exercised: number }) => html`<li>${label}: <strong>${t.exercised}</strong> of ${t.total}</li>`;
  return html`
    <section aria-labelledby="coverage-title">
      <h2 id="coverage-title">Coverage</h2>
      <p class="muted">What the v3 traffic so far exercised, against what the contract lets each operation answer. Reset clears the report.</p>
      <div class="toolbar"><button type="button" onClick=${report.reload}>Refresh</button></div>
      ${report.error && html`<p class="error" role="alert">${report.error}</p>`}
      ${
        n &&
        html`<div class="card next" data-gaps=${n.gaps.length}>
          <h3>What to do next</h3>
          ${
            n.gaps.length === 0
              ? html`<p>Nothing: the traffic exercised every status, reason code and transition the contract names.</p>`
              : html`<p>
                  ${n.percent}% covered. These are the gaps the coverage gate (<code>coverage --fail-under 100</code>, <code>assertCoverage</code>) names, each
                  with the control calls that set it up and the request to send then.
                </p>`
          }
          <ol class="gaps">
            ${n.gaps.map(
              (g) =>
                html`<li data-gap=${g.what}>
                  <p>${g.message}</p>
                  ${g.calls.length > 0 && html`<pre><code>${g.calls.join('\n')}</code></pre>`}
                  <p class="muted">then: ${g.then}</p>
                </li>`,
            )}
          </ol>
        </div>`
      }
      ${
        r &&
        html`
          <details
            class="full-report"
            open=${sessionStorage.getItem(FULL_KEY) === 'open'}
            onToggle=${(e: Event) => sessionStorage.setItem(FULL_KEY, (e.target as HTMLDetailsElement).open ? 'open' : '')}
          >
            <summary>The full report: every operation, what it answered and what is missing</summary>
            <ul class="summary" data-percent=${r.summary.percent}>
              <li>Overall: <strong>${r.summary.percent}%</strong></li>
              ${tally('operations called', r.summary.operations)} ${tally('statuses', r.summary.statuses)} ${tally('reason codes', r.summary.reason_codes)}
              ${tally('transitions', r.summary.transitions)}
            </ul>
            <div class="scroll">
              <table class="coverage">
                <caption class="sr-only">
                  Coverage per operation
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Operation</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Statuses seen</th>
                    <th scope="col">Missing statuses</th>
                    <th scope="col">Missing reason codes</th>
                    <th scope="col">Missing transitions</th>
                  </tr>
                </thead>
                <tbody>
                  ${r.operations.map(
                    (o) =>
                      html`<tr key=${o.operation} data-operation=${o.operation} class=${o.requests === 0 ? 'never' : ''}>
                        <th scope="row">
                          <code>${o.operation}</code>
                          <div class="muted small">${o.method} ${o.path}</div>
                          ${o.requests === 0 ? html`<div class="flag">never called</div>` : ''}
                        </th>
                        <td class="num">${o.requests}</td>
                        <td>${list(o.exercised.statuses, 'seen')}</td>
                        <td class="missing-cell">${list(o.missing.statuses, 'missing')}</td>
                        <td class="missing-cell">${list(o.missing.reason_codes, 'missing')}</td>
                        <td class="missing-cell">${list(o.missing.transitions, 'missing')}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
          </details>
        `
      }
    </section>
  `;
}
