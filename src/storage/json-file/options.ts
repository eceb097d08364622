// The JSON file adapter's options: an injectable file system, where it reports, when it compacts.
import type { FileSystem } from './fs.js';

/** Where the adapter reports long work and trouble; every method is optional. */
export interface StorageReporter {
  /** Progress of long work (loading, compaction), often: show it on a TTY. */
  progress?(line: string): void;
  /** One line with figures when long work ends. */
  summary?(line: string): void;
  /** One line per event: a torn log tail ignored, storage failing, storage recovered. Default: stderr. */
  warn?(line: string): void;
}

export interface JsonFileOptions {
  /** The file operations used for writing (tests inject a failing disk). */
  fs?: FileSystem;
  report?: StorageReporter;
  /** The log is compacted once it outgrows max(this, the snapshot's size). Default 8 MiB. */
  compactBytes?: number;
  /**
   * Called after a new snapshot is renamed over the data file: the file has a new identity (inode) from then on, and
   * the CLI moves its identity lock onto it. It must not throw.
   */
  onReplaced?(file: string): void;
  /**
   * Hold the data file's lock (the snapshot's and the log's, by path and identity) from the first read or write until
   * close (see `jsonFile`); a string is the path as the user gave it (a refusal names it). Off by default for
   * `new JsonFileAdapter` (with an injected `fs` there is no real file to lock).
   */
  lock?: boolean | string;
}
