// The server's metrics in the inspector: GET /_mock/metrics (the Prometheus text) as a table of its samples, buckets left out.
import { metricsText } from './api.js';
import { html } from './html.js';
import { useLoad } from './hooks.js';

interface Sample {
  name: string;
  labels: string;
  value: string;
}

/** The samples of a Prometheus text, without comments and histogram buckets (their _count and _sum stay). */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1].endsWith('_bucket')) continue;
    out.push({ name: m[1], labels: (m[2] ?? '').slice(1, -1).replaceAll(',', ', '), value: m[3] });
  }
  return out;
}

export function MetricsView() {
  const load = useLoad(() => metricsText(), []);
  const rows = typeof load.data === 'string' ? samples(load.data) : [];
  return html`
    <section aria-labelledby="metrics-title">
      <h2 id="metrics-title">Metrics</h2>
      <p class="muted">
        What <code>GET /_mock/metrics</code> serves to Prometheus, for the whole server (<code>scope</code>: the default mock, or every sandbox together).
        Histogram buckets are left out; their count and sum are shown.
      </p>
      <div class="toolbar"><button type="button" onClick=${load.reload}>Refresh</button></div>
      ${load.error && html`<p class="error" role="alert">${load.error}</p>`}
      <div class="scroll">
        <table class="metrics">
          <caption class="sr-only">
            Metric samples
          </caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Labels</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              (r) =>
                html`<tr>
                  <th scope="row"><code>${r.name}</code></th>
                  <td>${r.labels}</td>
                  <td class="num">${r.value}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>
  `;
}
