// The client report: each rule's findings over the journal (with the requests that show them), and what each rule checks.
import { call } from './api.js';
import { html } from './html.js';
import { useLoad } from './hooks.js';

export function ClientReportView() {
  const report = useLoad(() => call('GET', '/_mock/client-report'), []);
  const r = report.data;
  return html`
    <section aria-labelledby="client-report-title">
      <h2 id="client-report-title">Client report</h2>
      <p class="muted">
        How the client under test behaved, judged on the mock clock: reused tokens or codes, an ignored Retry-After, retries that cannot succeed, hot polling,
        unbounded concurrency.
      </p>
      <div class="toolbar"><button type="button" onClick=${report.reload}>Refresh</button></div>
      ${report.error && html`<p class="error" role="alert">${report.error}</p>`}
      ${
        r &&
        html`
          <p class="summary" data-findings=${r.findings.length}>
            <strong>${r.findings.length}</strong> finding${r.findings.length === 1 ? '' : 's'} over ${r.journal.entries} journal
            entries${r.journal.left ? html` (${r.journal.left} had left the journal and were not judged)` : ''}.
          </p>
          ${
            r.findings.length > 0 &&
            html`<ul class="findings">
              ${r.findings.map(
                (f) =>
                  html`<li class=${`finding ${f.severity}`} data-rule=${f.rule}>
                    <strong>${f.severity}</strong> <code>${f.rule}</code> — ${f.message}
                    <div class="muted small">
                      principal ${f.principal}; requests ${f.entries.map((id) => html`<a href=${`#requests`} data-request=${id}>#${id}</a> `)}
                    </div>
                  </li>`,
              )}
            </ul>`
          }
          <div class="scroll">
            <table class="rules">
              <caption class="sr-only">
                The rules
              </caption>
              <thead>
                <tr>
                  <th scope="col">Rule</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Entries checked</th>
                  <th scope="col">What it finds</th>
                </tr>
              </thead>
              <tbody>
                ${r.rules.map(
                  (rule) =>
                    html`<tr key=${rule.rule}>
                      <th scope="row"><code>${rule.rule}</code></th>
                      <td>${rule.severity}</td>
                      <td class="num">${rule.checked}</td>
                      <td>${rule.description}</td>
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
