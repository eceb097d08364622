// Reset (back to the loaded fixtures; journal, faults and coverage cleared) and loading a fixture file from disk.
import { useState } from 'preact/hooks';
import { call, stateChanged } from './api.js';
import { html } from './html.js';
import { useNotice } from './hooks.js';

export function AdminView({ onReset }: { onReset: () => void }) {
  const [notice, show] = useNotice();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = async () => {
    setBusy(true);
    try {
      const r = await call('POST', '/_mock/reset');
      onReset();
      show(`Reset: state is the loaded fixtures again; journal, faults and coverage cleared (clock ${r.now}).`);
    } catch (e) {
      show((e as Error).message, true);
    } finally {
      setBusy(false);
      stateChanged();
    }
  };

  const load = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    try {
      // Sent as the file's text: the mock validates it (a bad field is a 422 naming where it is, and nothing changes).
      const r = await call('POST', '/_mock/fixtures', { body: await file.text() });
      const counts = Object.entries(r.counts)
        .filter(([, n]) => n > 0)
        .map(([c, n]) => `${n} ${c}`)
        .join(', ');
      show(`Loaded ${file.name}: ${counts || 'an empty state'}. Reset now returns to it.`);
    } catch (err) {
      show(`${file.name} was not loaded: ${(err as Error).message}`, true);
    } finally {
      setBusy(false);
      stateChanged();
    }
  };

  return html`
    <section aria-labelledby="admin-title">
      <h2 id="admin-title">Reset and fixtures</h2>
      ${notice && html`<p class=${notice.error ? 'error' : 'notice'} role="status">${notice.text}</p>`}
      <div class="card">
        <h3>Reset</h3>
        <p>Back to the loaded fixtures. Also empties the request journal, removes every fault and clears the coverage report.</p>
        <button type="button" class="danger" disabled=${busy} onClick=${reset}>Reset the mock</button>
      </div>
      <form class="card" onSubmit=${load}>
        <h3>Load a fixture file</h3>
        <p>Replaces all state with the fixture document (see docs/fixtures.md); it becomes what Reset returns to.</p>
        <label for="fixture-file">Fixture file (JSON)</label>
        <input
          id="fixture-file"
          type="file"
          accept=".json,application/json"
          onChange=${(e: Event) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
        />
        <button type="submit" disabled=${busy || !file}>Load fixture</button>
      </form>
    </section>
  `;
}
