// The request journal, live: summaries polled every half second (only entries after the last id seen), the full
// redacted request and response fetched when one is opened.
import { useEffect, useState } from 'preact/hooks';
import { call, type S } from './api.js';
import type { Query } from './routes.js';
import { html, pretty, when } from './html.js';
import { usePoll } from './hooks.js';
import { rowTime } from './format.js';
import { DriftItems } from './drift.js';
import { inSpan, onOpen, setSpan, spanText, take, useSpan } from './span.js';

/**
 * A journal entry as the summaries list it (what the Requests list and the waterfall show): the document's entry, whose
 * schema leaves the timing and fault fields open, with those fields named.
 */
export type Summary = S['ControlJournalEntry'] & { duration_ms: number; fault?: { id: string; status?: number; delay_ms?: number } };

/** One page of summaries, oldest first. */
export const summaries = async (query: Query<'controlListRequests'>): Promise<Summary[]> =>
  (await call('GET', '/_mock/requests', { query: { ...query, summary: true } })).items as Summary[];

/** Which traffic the list shows: all of it, the clients' requests, or the simulation's own. */
const TRAFFIC = { all: () => true, clients: (r: Summary) => !r.simulated, simulated: (r: Summary) => r.simulated === true } as const;

/** How often the journal is polled: new requests show within a second. */
const JOURNAL_POLL_MS = 500;
/** Rows the page keeps (the newest). */
const KEEP = 500;

/** Paths as a list shows them: each UUID cut to its first 8 characters (the full path is the button's title and in the detail). */
const shortPath = (path: string) =>
  path
    .replace(/([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '$1…')
    .split('/')
    // A line may break before each slash rather than inside a segment.
    .map((seg, i) => (i === 0 ? seg : html`<wbr />/${seg}`));

const statusClass = (s: number) => (s >= 500 ? 's5' : s >= 400 ? 's4' : s >= 300 ? 's3' : 's2');

export function JournalView({ active }: { active: boolean }) {
  const [rows, setRows] = useState<Summary[]>([]);
  const [last, setLast] = useState(0);
  const [paused, setPaused] = useState(false);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [traffic, setTraffic] = useState<keyof typeof TRAFFIC>('all');
  const span = useSpan();
  // A click on the Timeline opens a request here (taken once if this section mounted for it).
  useEffect(() => {
    const first = take('requests');
    if (first) setOpen(first.request);
    return onOpen((o) => o.section === 'requests' && setOpen(o.request));
  }, []);

  usePoll(
    async () => {
      try {
        const page = await summaries({ after: last, limit: KEEP });
        setError(null);
        if (page.length === 0) return;
        setLast(page[page.length - 1]!.id);
        setRows((old) => [...old, ...page].slice(-KEEP));
      } catch (e) {
        setError((e as Error).message);
      }
    },
    JOURNAL_POLL_MS,
    active && !paused,
  );

  const clear = async () => {
    try {
      await call('DELETE', '/_mock/requests');
      setRows([]);
      setOpen(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const needle = filter.trim().toLowerCase();
  const shown = rows
    .filter(
      (r) =>
        TRAFFIC[traffic](r) &&
        inSpan(span, r.at) &&
        (!needle || `${r.method} ${r.path} ${r.status} ${r.operation ?? ''}${r.simulated ? ' simulated' : ''}`.toLowerCase().includes(needle)),
    )
    .reverse();

  return html`
    <section aria-labelledby="journal-title">
      <h2 id="journal-title">Requests</h2>
      <div class="toolbar">
        <label
          >Filter
          <input
            type="search"
            value=${filter}
            onInput=${(e: Event) => setFilter((e.target as HTMLInputElement).value)}
            placeholder="method, path, status, operation"
        /></label>
        <label
          >Traffic
          <select value=${traffic} onChange=${(e: Event) => setTraffic((e.target as HTMLSelectElement).value as keyof typeof TRAFFIC)}>
            <option value="all">all</option>
            <option value="clients">clients only</option>
            <option value="simulated">simulated only</option>
          </select></label
        >
        <button type="button" aria-pressed=${paused} onClick=${() => setPaused(!paused)}>${paused ? 'Resume' : 'Pause'}</button>
        <button type="button" onClick=${clear}>Clear journal</button>
        <span class="muted" aria-live="polite">${paused ? 'paused' : 'live'} · ${shown.length} shown of ${rows.length}</span>
      </div>
      ${
        span &&
        html`<p class="span-banner" data-span-from=${span.from}>
          Showing the Timeline's span, ${spanText(span)}. <button type="button" onClick=${() => setSpan(null)}>Clear span</button>
        </p>`
      }
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <div class="split">
        <div class="scroll">
          <table class="journal">
            <caption class="sr-only">
              Requests, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Status</th>
                <th scope="col" class="wide">Duration</th>
                <th scope="col" class="wide">Operation</th>
              </tr>
            </thead>
            <tbody>
              ${shown.map(
                (r) =>
                  html`<tr key=${r.id} data-id=${r.id} data-path=${r.path} class=${open === r.id ? 'selected' : ''}>
                    <td class="nowrap">${rowTime(r.at)}</td>
                    <td>${r.method}</td>
                    <td class="path">
                      <button
                        type="button"
                        class="link"
                        title=${r.path}
                        aria-label=${`${r.method} ${r.path}: show the request and response`}
                        aria-expanded=${open === r.id}
                        onClick=${() => setOpen(open === r.id ? null : r.id)}
                      >
                        ${shortPath(r.path)}
                      </button>
                    </td>
                    <td>
                      <span class=${`status ${statusClass(r.status)}`}>${r.status}</span
                      >${r.fault && html` <span class="badge" title="answered or delayed by fault ${r.fault.id}">fault</span>`}${r.simulated && html` <span class="badge sim" title="sent by the simulation (synthetic chat traffic), not by a client">simulated</span>`}
                    </td>
                    <td class="wide num">${r.duration_ms.toFixed(1)} ms</td>
                    <td class="wide">${r.operation ?? '—'}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${shown.length === 0 && html`<p class="muted">No requests yet: send one to /api/v3/… and it shows here.</p>`}
        </div>
        ${open !== null && html`<${EntryDetail} id=${open} onClose=${() => setOpen(null)} />`}
      </div>
    </section>
  `;
}

/** A whole entry: its summary, the query, and the request and response (redacted), which the document leaves open. */
type Entry = Summary & {
  query: Record<string, unknown>;
  request: { headers: Record<string, unknown>; body: unknown };
  response: { headers: Record<string, unknown>; body: unknown };
};

function EntryDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const [entry, setEntry] = useState<Entry | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setEntry(null);
    setError(null);
    call('GET', '/_mock/requests/{request_id}', { path: { request_id: id } }).then(
      (e) => live && setEntry(e as Entry),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [id]);
  return html`
    <aside class="detail" aria-labelledby="entry-title">
      <div class="detail-head">
        <h3 id="entry-title">Request #${id}</h3>
        <button type="button" onClick=${onClose}>Close</button>
      </div>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${
        entry &&
        html`
          <p>
            <strong>${entry.method} ${entry.path}</strong> → <span class=${`status ${statusClass(entry.status)}`}>${entry.status}</span> in ${entry.duration_ms}
            ms, at ${when(entry.at)}${entry.operation ? ` (${entry.operation})` : ''}
          </p>
          ${entry.fault && html`<p class="badge-line">Fault ${entry.fault.id}: ${entry.fault.status ? `answered ${entry.fault.status}` : ''}${entry.fault.delay_ms ? ` delayed ${entry.fault.delay_ms} ms` : ''}</p>`}
          ${
            Object.keys(entry.query).length > 0 &&
            html`<h4>Query</h4>
              <pre>${pretty(entry.query)}</pre>`
          }
          <h4>Request headers</h4>
          <pre>${pretty(entry.request.headers)}</pre>
          <h4>Request body</h4>
          <pre>${pretty(entry.request.body)}</pre>
          <h4>Response headers</h4>
          <pre>${pretty(entry.response.headers)}</pre>
          <h4>Response body</h4>
          <pre>${pretty(entry.response.body)}</pre>
          ${entry.drift && html`<${DriftItems} items=${entry.drift} />`}
        `
      }
    </aside>
  `;
}
