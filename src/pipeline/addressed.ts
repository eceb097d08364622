// The mock a request addresses (the server's default one or a sandbox): the server's first middleware sets it, and every
// middleware and handler after it reads it, so one app, one middleware chain and one route table serve every mock.
import type { Context } from 'koa';
import type { Deps } from '../deps.js';
import type { MockControl } from '../mock-control/index.js';
import type { ClientObserver } from '../judge/index.js';
import type { MockShadow } from '../shadow/index.js';
import type { ScopeCells } from '../metrics/index.js';

/** What a request is answered from: the mock's collaborators, its control surface and its client observer. */
export interface AddressedMock {
  readonly deps: Deps;
  readonly control: MockControl;
  /** What the client report learns of each request (in flight per principal), per mock. */
  readonly observer: ClientObserver;
  /** Where shadow mode records this mock's differences (null without a shadow target). */
  readonly shadow: MockShadow | null;
  /** What its requests, faults and commits count into: the default mock's cells, or the ones every sandbox shares. */
  readonly meter: ScopeCells;
}

const MOCK = Symbol('addressed mock');

/** Answers `ctx` from `mock` (the default mock first; the sandbox selector then readdresses a sandbox's request). */
export function address(ctx: Context, mock: AddressedMock): void {
  (ctx.state as { [MOCK]?: AddressedMock })[MOCK] = mock;
}

/** The mock `ctx` is answered from. */
export function addressed(ctx: Context): AddressedMock {
  return (ctx.state as { [MOCK]: AddressedMock })[MOCK];
}
