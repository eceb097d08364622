// A bundle whose settings record has the simulation mode the restoring mock would use anyway, but another retention:
// the restored mock keeps the bundle's retention, not its own default.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';

const SEAL_KEY = 'bundle-same-mode-seal-key-0123456789';
type Settings = { id: string; mode: string; retention_days: number };

test('bundle: same mode, other retention: the bundle carries and restores its own retention', async () => {
  // The mode is set explicitly (a settings record exists); the retention in force came from the default (3 days).
  const from = await freshMock({ seed: 'bundle-same-mode', sealKey: SEAL_KEY, simulation: { retentionDays: 3 } });
  await from.http.put('/_mock/simulation').send({ mode: 'off' }).expect(200);
  const sim = (await from.http.get('/_mock/simulation').expect(200)).body;
  assert.equal([sim.mode, sim.retention_days], ['off', 3]);
  const bundle = (await from.http.get('/_mock/bundle').expect(200)).body;
  const settings = (bundle.state.simulation as Settings[]).filter((r) => r.id === 'settings');
  assert.equal(
    settings.map((r) => [r.mode, r.retention_days]),
    [['off', 3]],
  );
  // The restoring mock has the same mode (off) and another retention (9 days).
  const into = await freshMock({ seed: 'bundle-same-mode', sealKey: SEAL_KEY, simulation: { retentionDays: 9 } });
  const before = (await into.http.get('/_mock/simulation').expect(200)).body;
  assert.equal([before.mode, before.retention_days], ['off', 9]);
  await into.http.put('/_mock/bundle').send(bundle).expect(200);
  const after = (await into.http.get('/_mock/simulation').expect(200)).body;
  assert.equal([after.mode, after.retention_days], ['off', 3]);
});

test('bundle: same mode, retention set explicitly to 0 (keep everything) is restored as 0 over a default of 9', async () => {
  const from = await freshMock({ seed: 'bundle-same-mode', sealKey: SEAL_KEY, simulation: { retentionDays: 5 } });
  await from.http.put('/_mock/simulation').send({ mode: 'off', retention_days: 0 }).expect(200);
  const bundle = (await from.http.get('/_mock/bundle').expect(200)).body;
  const into = await freshMock({ seed: 'bundle-same-mode', sealKey: SEAL_KEY, simulation: { retentionDays: 9 } });
  await into.http.put('/_mock/bundle').send(bundle).expect(200);
  const after = (await into.http.get('/_mock/simulation').expect(200)).body;
  assert.equal([after.mode, after.retention_days], ['off', 0]);
});

test.run();
