// The storage's face: the one store (state, commits, sync, replace) and what it is built from, the adapters (memory,
// the JSON file with its lock, PostgreSQL, any lowdb Adapter), and the errors storage answers with.
export * from './adapters.js';
export { Store, Transaction, type StoreOptions, type Snapshot } from './store.js';
export type { ReadView, RecordReader, Writer, WriteScope } from './store.js';
export { StorageUnavailable, storageUnavailable } from './unavailable.js';
export { SandboxGone } from './sandbox-gone.js';
export type { SandboxRow, SharedSandboxStorage } from './change-sets.js';
export { redactUrl } from './postgres/index.js';
export { ClockReading, MAX_CLOCK_MS, MIN_TIMESTAMP_MS, type TimeSource } from './clock.js';
