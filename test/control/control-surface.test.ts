// What mock.control offers, pinned: every public method by name and arity and the four per-mock parts it shows, on the
// default mock and a sandbox's own control API, so a method lost (or one added unnoticed) while the parts move fails.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockControl } from '../../src/index.js';
import { demoFixture } from '../../src/fixtures.js';
import { Journal } from '../../src/control/journal.js';
import { Verifier } from '../../src/control/verify/index.js';
import { FaultRegistry } from '../../src/control/faults/index.js';
import { CoverageTracker } from '../../src/control/coverage.js';
import { CONTROL_METHODS } from '../helpers/control-methods.js';

/** The per-mock parts the request pipeline reaches through mock.control (public properties, not methods). */
const CONTROL_PARTS = { journal: Journal, verifier: Verifier, faultRegistry: FaultRegistry, coverageTracker: CoverageTracker } as const;

// Checked by `npm run typecheck`: the type names exactly these members, no fewer and no more (private ones aside).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const typeNamesThem: Same<keyof MockControl, keyof typeof CONTROL_METHODS | keyof typeof CONTROL_PARTS> = true;

/** Every function-valued member an instance answers (its own and its prototypes'), with its arity. */
function methodsOf(control: object): Record<string, number> {
  const found: Record<string, number> = {};
  for (let o: object | null = control; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) {
      const value = (control as Record<string, unknown>)[name];
      if (name !== 'constructor' && typeof value === 'function' && !(name in found)) found[name] = value.length;
    }
  }
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function assertSurface(control: MockControl, which: string): void {
  assert.equal(methodsOf(control), CONTROL_METHODS, `${which}: methods and arities`);
  for (const [name, kind] of Object.entries(CONTROL_PARTS)) {
    assert.ok((control as unknown as Record<string, unknown>)[name] instanceof kind, `${which}: ${name} is a ${kind.name}`);
  }
}

test('mock.control answers exactly the pinned methods, each with its arity, and shows its journal, verifier, faults and coverage', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  try {
    assert.is(Object.keys(CONTROL_METHODS).length, 65);
    assertSurface(mock.control, 'the default mock');
  } finally {
    await mock.close();
  }
});

test("a sandbox's own control API answers the same methods", async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  try {
    const sb = await mock.control.createSandbox();
    assertSurface(mock.control.sandboxControl(sb.id), 'a sandbox');
  } finally {
    await mock.close();
  }
});

test('the methods are served by the instance they were called on: two mocks do not share what they hold', async () => {
  const a = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const b = await createApp({ storage: 'memory', fixtures: demoFixture() });
  try {
    const before = b.control.now();
    assert.is(await a.control.advanceClock(60_000), new Date(Date.parse(before) + 60_000).toISOString());
    assert.is(b.control.now(), before);
    a.control.addFault({ method: 'GET', path: '/api/v3/projects', status: 503 });
    assert.is(a.control.faults().length, 1);
    assert.is(b.control.faults().length, 0);
  } finally {
    await a.close();
    await b.close();
  }
});

test.run();
