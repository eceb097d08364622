// Metrics: what one server counts (requests, commits, sandboxes, journal, faults, shadow, simulation) and its Prometheus text.
import type { Registry } from 'prom-client';
import { ScopeCells, ServerCells } from './cells.js';
import type { MetricSources } from './exposition.js';

export { ScopeCells } from './cells.js';
export type { MetricSources } from './exposition.js';

/** The content type of the Prometheus text format (version 0.0.4), as prom-client's registry names it. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * One server's metrics (each createApp has its own: two apps in one process never share a count). The default mock counts
 * into `root`, every sandbox into `sandboxes`; the registry is built at the first scrape.
 */
export class ServerMetrics {
  readonly root: ScopeCells;
  readonly sandboxes: ScopeCells;
  readonly server = new ServerCells();
  private registry: Registry | undefined;

  constructor(
    operations: readonly string[],
    /** What a scrape reads of the server's other parts. */
    private readonly sources: MetricSources,
  ) {
    this.root = new ScopeCells('default', operations);
    this.sandboxes = new ScopeCells('sandbox', operations);
  }

  /** The Prometheus text format of every metric (prom-client is loaded at the first scrape: importing the package stays cheap). */
  async text(): Promise<string> {
    if (!this.registry) {
      const { exposition } = await import('./exposition.js');
      this.registry ??= exposition([this.root, this.sandboxes], this.server, this.sources);
    }
    return this.registry.metrics();
  }
}
