// The package's public API: createApp, storage adapters, fixtures, and helpers for tests.
export { createApp, type CreateAppOptions, type MockApp } from './app.js';
export {
  MemoryAdapter,
  JsonFileAdapter,
  jsonFile,
  DataFileError,
  ChangeSetConflict,
  persistsChangeSets,
  wholeDocument,
  isWholeState,
  postgresStorage,
  PostgresAdapter,
  DatabaseSchemaError,
  type PostgresOptions,
  type CaughtUp,
  type Rebase,
  type StorageAdapter,
  type Adapter,
  type ChangeSet,
  type Change,
  type ChangeSetAdapter,
  type ChangeSetCapability,
  type CommittedState,
  type JsonFileOptions,
  type StorageReporter,
} from './storage/index.js';
export type { Snapshot } from './storage/index.js';
export type { DataFile, StateData } from './schemas/index.js';
export { stateFromFixture, readFixtureFile, demoFixture, FixtureError, DEMO_FIXTURE_PATH } from './fixtures.js';
export type { FixtureInput as Fixture } from './schemas/index.js';
export { seededIds, seededTokens, randomIds, randomTokens, type IdGenerator, type TokenGenerator } from './domain/index.js';
export { MockControl } from './mock-control/index.js';
export { REASON_CODES, type ReasonCode } from './reason-codes.js';
export { createPkcePair, signBrokerPayload, type PkcePair, type SignedBrokerPayload } from './client-helpers.js';
export { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS, AUTHORIZATION_CODE_TTL_MS } from './domain/index.js';
