// The sandbox picker at the end of the sections bar of the default mock's page: the live sandboxes (GET
// /_mock/sandboxes, newest first, refreshed every few seconds) and the default mock; choosing one makes every view show
// that sandbox.
import { useState } from 'preact/hooks';
import { ApiFailure, callDefault, type S } from './api.js';
import { html, when } from './html.js';
import { usePoll } from './hooks.js';
import './sandboxes.css';

/** The list's largest page: more live sandboxes than this are counted, the newest listed. */
const REFRESH_MS = 3000;

type Sandbox = S['Sandbox'];

const label = (s: Sandbox) => `${s.name || 'unnamed'} · ${s.id}`;

/** What the picker knows: the live list, whether the chosen one is live, or that this mock has no sandboxes to list. */
interface Known {
  page: S['SandboxPage'] | null;
  picked: Sandbox | null | 'gone';
  unavailable: boolean;
}

export function SandboxPicker({ picked, onPick }: { picked: string | null; onPick: (id: string | null) => void }) {
  const [known, setKnown] = useState<Known>({ page: null, picked: null, unavailable: false });
  usePoll(async () => {
    let page: S['SandboxPage'];
    try {
      page = await callDefault('GET', '/_mock/sandboxes', { query: { limit: 200 } });
    } catch (e) {
      // A page reached through a proxy that adds X-Mock-Sandbox is a sandbox's: sandboxes do not nest, nothing to pick.
      if (e instanceof ApiFailure && e.status === 404) setKnown({ page: null, picked: null, unavailable: true });
      throw e;
    }
    let chosen: Known['picked'] = null;
    if (picked) chosen = page.items.find((s) => s.id === picked) ?? (await lookUp(picked));
    setKnown({ page, picked: chosen, unavailable: false });
  }, REFRESH_MS);
  if (known.unavailable) return null;

  const items = known.page?.items ?? [];
  const options = known.picked && known.picked !== 'gone' && !items.some((s) => s.id === picked) ? [known.picked, ...items] : items;
  return html`
    <div class="picker">
      <label for="mock-picker">Showing</label>
      <select id="mock-picker" value=${picked ?? ''} onChange=${(e: Event) => onPick((e.target as HTMLSelectElement).value || null)}>
        <option value="">Default mock</option>
        ${options.map((s) => html`<option value=${s.id} title=${`created ${when(s.created_at)}, expires ${when(s.expires_at)}`}>${label(s)}</option>`)}
        ${picked && !options.some((s) => s.id === picked) && html`<option value=${picked}>${picked} (not live)</option>`}
      </select>
      <span class="muted" data-sandbox-count=${items.length}>
        ${known.page ? `${items.length}${known.page.next_cursor ? '+' : ''} live sandbox${items.length === 1 ? '' : 'es'}` : '…'}
      </span>
      ${
        known.picked === 'gone' &&
        html`<p class="error" role="alert">
          No live sandbox <code>${picked}</code>: it was deleted or it expired.
          <button type="button" onClick=${() => onPick(null)}>Show the default mock</button>
        </p>`
      }
    </div>
  `;
}

/** The chosen sandbox when it is older than the listed page, or 'gone' when it is not live. */
async function lookUp(id: string): Promise<Sandbox | 'gone'> {
  try {
    return await callDefault('GET', '/_mock/sandboxes/{sandbox_id}', { path: { sandbox_id: id } });
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 404) return 'gone';
    throw e;
  }
}
