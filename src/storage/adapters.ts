// The storage public face: the adapters (memory, the JSON file, any lowdb Adapter) and the change-set capability they may implement.
export type { Adapter } from 'lowdb';
export type { StorageAdapter, ChangeSetAdapter, ChangeSetCapability, ChangeSet, Change, CommittedState, CaughtUp, Rebase } from './change-sets.js';
export { ChangeSetConflict, persistsChangeSets, isWholeState } from './change-sets.js';
export { MemoryAdapter } from './memory.js';
export { JsonFileAdapter, jsonFile, LockError, JsonStreamError, readJsonStreaming, type JsonFileOptions, type StorageReporter } from './json-file/index.js';
export { DataFileError } from './data-file.js';
export { wholeDocument } from './lowdb-adapter.js';
export { postgresStorage, PostgresAdapter, DatabaseSchemaError, type PostgresOptions } from './postgres/index.js';
