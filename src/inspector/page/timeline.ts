// The Timeline section: GET /_mock/timeline drawn with uPlot (loaded the first time the section shows), live while the
// mock clock runs. Dragging across a chart sets the span the Requests and State sections show; a click on a bucket
// opens its first request (requests chart) or its first run (the other charts).
import { useEffect, useRef, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import { call } from './api.js';
import { html } from './html.js';
import { usePoll } from './hooks.js';
import { open, setSpan, spanText, useSpan } from './span.js';
import { WaterfallView } from './waterfall.js';
import { CHARTS, dataOf, optionsOf, type ChartSpec, type TimelineAnswer } from './timeline-charts.js';
import 'uplot/dist/uPlot.min.css';
import './timeline.css';

/** How often the series are read again while the section shows (a running clock moves them). */
const TIMELINE_POLL_MS = 2000;
const SPANS: [string, number][] = [
  ['last hour', 3_600_000],
  ['last 6 hours', 6 * 3_600_000],
  ['last day', 86_400_000],
  ['last 7 days', 7 * 86_400_000],
  ['last 30 days', 30 * 86_400_000],
];
const BUCKETS = 96;

let lib: Promise<typeof uPlot> | undefined;
/** uPlot, from its own file beside page.js (same origin: the page's CSP allows it). */
const loadLib = () =>
  (lib ??= import(/* the built file, not bundled */ new URL('./uplot.js', import.meta.url).href).then((m: { default: typeof uPlot }) => m.default));

export function TimelineView({ active }: { active: boolean }) {
  const [spanMs, setSpanMs] = useState(86_400_000);
  const [data, setData] = useState<TimelineAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uplot, setUplot] = useState<typeof uPlot | null>(null);
  const brushed = useSpan();

  useEffect(() => {
    // A function given to a state setter would be called as an updater: the library goes in wrapped.
    loadLib().then(
      (u) => setUplot(() => u),
      (e: Error) => setError(`The chart library did not load: ${e.message}`),
    );
  }, []);
  const load = async () => {
    try {
      const { now } = await call('GET', '/_mock/clock');
      const to = Date.parse(now);
      setData(await call('GET', '/_mock/timeline', { query: { from: new Date(to - spanMs).toISOString(), to: now, buckets: BUCKETS } }));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  usePoll(load, TIMELINE_POLL_MS, active);
  useEffect(() => void load(), [spanMs]);

  return html`
    <section aria-labelledby="timeline-title" class="timeline">
      <h2 id="timeline-title">Timeline</h2>
      <p class="muted">
        What the mock did on its clock, read again every 2 s. Drag across a chart to show only that span in Requests and State; click a bucket to open its first
        request (requests chart) or its first run (the others).
      </p>
      <div class="toolbar">
        <label for="timeline-span">Span</label>
        <select id="timeline-span" value=${spanMs} onChange=${(e: Event) => setSpanMs(Number((e.target as HTMLSelectElement).value))}>
          ${SPANS.map(([label, ms]) => html`<option value=${ms}>${label}</option>`)}
        </select>
        ${data && html`<span class="muted" data-buckets=${data.buckets}>${data.buckets} buckets of ${bucketText(data.bucket_ms)}</span>`}
      </div>
      ${
        brushed &&
        html`<p class="span-banner" data-span-from=${brushed.from} data-span-to=${brushed.to}>
          Requests and State show ${spanText(brushed)}. <button type="button" onClick=${() => setSpan(null)}>Clear span</button>
        </p>`
      }
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${data && data.journal_from && Date.parse(data.journal_from) > Date.parse(data.from) && html`<p class="muted small">The journal holds requests from ${data.journal_from.replace('T', ' ').slice(0, 19)} on: earlier buckets show none.</p>`}
      ${data && uplot ? CHARTS.map((c) => html`<${Chart} key=${c.id} lib=${uplot} chart=${c} data=${data} />`) : !error && html`<p class="muted">Loading…</p>`}
    </section>
    <${WaterfallView} />
  `;
}

const bucketText = (ms: number) =>
  ms >= 3_600_000 ? `${+(ms / 3_600_000).toFixed(2)} h` : ms >= 60_000 ? `${+(ms / 60_000).toFixed(2)} min` : `${+(ms / 1000).toFixed(2)} s`;

/** One chart and its totals; the uPlot instance is made once per set of series and fed new data after. */
function Chart({ lib, chart, data }: { lib: typeof uPlot; chart: ChartSpec; data: TimelineAnswer }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);
  latest.current = data;
  const series = chart.series(data);
  const shape = series.map((s) => s.key).join(' ');

  useEffect(() => {
    const el = box.current!;
    const u = new lib(optionsOf(lib, chart, series, Math.max(280, el.clientWidth)), dataOf(data, series), el);
    plot.current = u;
    u.hooks.setSelect = [
      (self: uPlot) => {
        if (self.select.width < 2) return;
        const t = latest.current;
        const from = Date.parse(t.from);
        // Snapped to whole buckets: the span holds exactly the buckets the drag touched.
        const at = (px: number) => (self.posToVal(px, 'x') * 1000 - from) / t.bucket_ms;
        const a = Math.max(0, Math.floor(at(self.select.left)));
        const b = Math.min(t.buckets, Math.max(a + 1, Math.ceil(at(self.select.left + self.select.width))));
        setSpan({ from: from + a * t.bucket_ms, to: Math.min(Date.parse(t.to), from + b * t.bucket_ms) });
      },
    ];
    const click = () => {
      const i = u.cursor.idx;
      const t = latest.current;
      if (i === null || i === undefined) return;
      if (chart.id === 'requests') {
        const id = t.first.request[i];
        if (id !== null && id !== undefined) open({ section: 'requests', request: id });
      } else {
        const run = t.first.run[i];
        if (run) open({ section: 'state', project: run.project_id, run: run.id });
      }
    };
    u.over.addEventListener('click', click);
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(280, el.clientWidth), height: 170 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [lib, shape]);

  useEffect(() => {
    plot.current?.setData(dataOf(data, series));
  }, [data]);

  return html`
    <figure class="chart" data-chart=${chart.id}>
      <div ref=${box} class="plot" role="img" aria-label=${`${chart.title}: chart`}></div>
      <figcaption>
        <table class="totals">
          <caption class="sr-only">
            ${chart.title}: totals in the span
          </caption>
          <tbody>
            ${series.map(
              (s) =>
                html`<tr data-series=${s.key} data-total=${s.total(data)}>
                  <th scope="row"><span class="swatch" style=${{ background: s.color }}></span>${s.label}</th>
                  <td class="num">${s.total(data)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </figcaption>
    </figure>
  `;
}
