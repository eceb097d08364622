// The coverage report as a table: per v3 operation, what the traffic exercised and, highlighted, what it did not.
import { call, type S } from './api.js';
import { html } from './html.js';
import { useLoad } from './hooks.js';

type Report = S['ControlCoverageReport'];

const list = (xs: (string | number)[], cls: string) =>
  xs.length
    ? html`<ul class=${`tags ${cls}`}>
        ${xs.map((x) => html`<li>${x}</li>`)}
      </ul>`
    : html`<span class="muted">none</span>`;

export function CoverageView() {
  const report = useLoad(() => call<Report>('GET', '/_mock/coverage'), []);
  const r = report.data;
  const tally = (label: string, t: { total: number; exercised: number }) => html`<li>${label}: <strong>${t.exercised}</strong> of ${t.total}</li>`;
  return html`
    <section aria-labelledby="coverage-title">
      <h2 id="coverage-title">Coverage</h2>
      <p class="muted">
        What the v3 traffic so far exercised, against what the contract lets each operation answer. Missing items are highlighted. Reset clears the report.
      </p>
      <div class="toolbar"><button type="button" onClick=${report.reload}>Refresh</button></div>
      ${report.error && html`<p class="error" role="alert">${report.error}</p>`}
      ${
        r &&
        html`
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
        `
      }
    </section>
  `;
}
