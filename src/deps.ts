// What the domain needs from createApp (store, clock, ids, config); nothing here is global, and nothing of the control surface.
import type { Store } from './storage/store.js';
import type { MockClock } from './domain/clock.js';
import type { IdGenerator, TokenGenerator } from './domain/ids.js';

export interface RuntimeConfig {
  auth: 'on' | 'off';
  control: boolean;
  /** /_mock requires X-Mock-Control-Token (the OpenAPI document then lists it as a security scheme). */
  controlTokenRequired: boolean;
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
}
