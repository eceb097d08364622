// The dependencies every route and domain service receives from createApp; nothing here is global.
import type { Store } from './storage/store.js';
import type { MockClock } from './domain/clock.js';
import type { IdGenerator, TokenGenerator } from './domain/ids.js';
import type { MockControl } from './control/api.js';

export interface RuntimeConfig {
  auth: 'on' | 'off';
  control: boolean;
  /** Request body limit in bytes. */
  bodyLimit: number;
  adminKey(): string | null;
  brokerSecret(): string | null;
}

export interface Deps {
  store: Store;
  clock: MockClock;
  ids: IdGenerator;
  tokens: TokenGenerator;
  config: RuntimeConfig;
  /** The in-process control API, set by createApp: the /_mock routes reach reset, journal and faults through it. */
  control?: MockControl;
}
