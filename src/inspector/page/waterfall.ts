// A client's session as a waterfall: the requests of one test (its X-Test-Name header) or one principal, one row each,
// on the mock clock with their durations; faults and the client report's findings marked on the requests that broke a
// rule. Drawn as one SVG with its colours in attributes, so the same bytes download as an image (SVG, or PNG via canvas).
import { useState } from 'preact/hooks';
import { call } from './api.js';
import { html } from './html.js';
import { useLoad } from './hooks.js';
import { summaries, type Summary } from './journal.js';

type Row = Summary;

const W = 1000;
const LABEL = 380;
const ROW = 22;
const AXIS = 28;
/** At most this many requests are drawn (the newest of the session). */
const MAX_ROWS = 300;

/** The sessions the journal holds: each test named, then each principal (tests first: a recipe names its test). */
function sessions(rows: Row[]): { key: string; label: string }[] {
  const tests = [...new Set(rows.flatMap((r) => (r.test ? [r.test] : [])))];
  const principals = [...new Set(rows.flatMap((r) => (r.principal ? [r.principal] : [])))];
  return [...tests.map((t) => ({ key: `test:${t}`, label: `test: ${t}` })), ...principals.map((p) => ({ key: `principal:${p}`, label: `principal: ${p}` }))];
}

/**
 * Each row's bar on the mock clock: from its arrival to its end. When the clock did not move during the session (it was
 * frozen), arrival times say nothing: the bars follow each other in order, each as long as its request took.
 */
function layout(rows: readonly Pick<Row, 'at' | 'duration_ms'>[]): { start: number; length: number; sequential: boolean }[] {
  const t0 = rows.length ? Date.parse(rows[0].at) : 0;
  const sequential = rows.every((r) => Date.parse(r.at) === t0);
  let cursor = 0;
  return rows.map((r) => {
    const start = sequential ? cursor : Date.parse(r.at) - t0;
    cursor += r.duration_ms;
    return { start, length: r.duration_ms, sequential };
  });
}

export function WaterfallView() {
  const [picked, setPicked] = useState('');
  const [tick, setTick] = useState(0);
  const all = useLoad(() => summaries({ simulated: false, limit: 1000 }), [tick]);
  const report = useLoad(() => call('GET', '/_mock/client-report'), [tick]);
  const options = sessions(all.data ?? []);
  const key = picked || options[0]?.key || '';
  const [kind, ...rest] = key.split(':');
  const value = rest.join(':');
  const rows = (all.data ?? []).filter((r) => (kind === 'test' ? r.test === value : r.principal === value)).slice(-MAX_ROWS);
  const broke = new Map<number, string[]>();
  for (const f of report.data?.findings ?? []) for (const id of f.entries) broke.set(id, [...(broke.get(id) ?? []), f.rule]);

  return html`
    <section aria-labelledby="waterfall-title" class="waterfall">
      <h2 id="waterfall-title">Session waterfall</h2>
      <p class="muted">
        The requests of one test (named by its <code>X-Test-Name</code> header) or one principal, on the mock clock: each bar from its arrival, as long as it
        took. Faults and the client report's findings are marked on the requests they concern.
      </p>
      <div class="toolbar">
        <label for="waterfall-session">Session</label>
        <select id="waterfall-session" value=${key} onChange=${(e: Event) => setPicked((e.target as HTMLSelectElement).value)}>
          ${options.map((o) => html`<option value=${o.key}>${o.label}</option>`)}
        </select>
        <button type="button" onClick=${() => setTick((t) => t + 1)}>Refresh</button>
        <button type="button" disabled=${rows.length === 0} onClick=${() => download('svg')}>Download SVG</button>
        <button type="button" disabled=${rows.length === 0} onClick=${() => download('png')}>Download PNG</button>
      </div>
      ${all.error && html`<p class="error" role="alert">${all.error}</p>`}
      ${options.length === 0 ? html`<p class="muted">No client requests with a principal or a test name yet.</p>` : html`<div class="scroll">${chart(rows, broke)}</div>`}
    </section>
  `;
}

function chart(rows: Row[], broke: Map<number, string[]>) {
  const bars = layout(rows);
  const total = Math.max(1, ...bars.map((b) => b.start + b.length));
  const scale = (W - LABEL - 140) / total;
  const height = AXIS + rows.length * ROW + 8;
  const sequential = bars[0]?.sequential ?? false;
  return html`<svg
    xmlns="http://www.w3.org/2000/svg"
    id="waterfall-svg"
    viewBox=${`0 0 ${W} ${height}`}
    width=${W}
    height=${height}
    font-family="system-ui, sans-serif"
    font-size="12"
    role="img"
    aria-label=${`Waterfall of ${rows.length} requests`}
  >
    <rect x="0" y="0" width=${W} height=${height} fill="#ffffff" />
    <text x=${LABEL} y="16" fill="#4b5563">
      ${sequential ? `in order, each as long as it took (the mock clock did not move): ${fmt(total)} in all` : `mock clock: ${fmt(total)} from the first request`}
    </text>
    ${rows.map((r, i) => {
      const y = AXIS + i * ROW;
      const b = bars[i];
      const rules = broke.get(r.id) ?? [];
      const color = r.fault ? '#b91c1c' : r.status >= 500 || r.status === 0 ? '#dc2626' : r.status >= 400 ? '#d97706' : '#2563eb';
      const x = LABEL + b.start * scale;
      return html`<g data-id=${r.id} data-fault=${r.fault ? 'true' : undefined} data-rules=${rules.join(' ') || undefined}>
        <text x="4" y=${y + 15} fill="#111827">${`#${r.id} ${r.method} ${short(r.path)}`.slice(0, 48)}</text>
        <text x=${LABEL - 8} y=${y + 15} fill=${color} text-anchor="end">${r.status}</text>
        <rect
          x=${x}
          y=${y + 4}
          width=${Math.max(2, b.length * scale)}
          height=${ROW - 8}
          fill=${color}
          stroke=${rules.length ? '#7c2d12' : 'none'}
          stroke-width="2"
        />
        <text x=${x + Math.max(2, b.length * scale) + 6} y=${y + 15} fill=${rules.length || r.fault ? '#7c2d12' : '#4b5563'}>
          ${`${fmt(r.duration_ms)}${r.fault ? ' · fault' : ''}${rules.length ? ` · ${rules.join(', ')}` : ''}`}
        </text>
      </g>`;
    })}
  </svg>`;
}

const short = (path: string) => path.replace(/([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '$1…');
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

/** Saves the drawn waterfall: the SVG as it is, or drawn on a canvas and saved as PNG. */
async function download(as: 'svg' | 'png'): Promise<void> {
  const svg = document.getElementById('waterfall-svg');
  if (!svg) return;
  const text = new XMLSerializer().serializeToString(svg);
  const save = (blob: Blob, name: string) => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  };
  if (as === 'svg') return save(new Blob([text], { type: 'image/svg+xml' }), 'waterfall.svg');
  // The page's CSP allows images from data: URLs: the SVG goes through one onto a canvas.
  const img = new Image();
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  img.src = `data:image/svg+xml;base64,${btoa(binary)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width;
  canvas.height = img.height;
  canvas.getContext('2d')!.drawImage(img, 0, 0);
  canvas.toBlob((blob) => blob && save(blob, 'waterfall.png'), 'image/png');
}
