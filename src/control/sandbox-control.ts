// The control operations on sandboxes (the default mock only: they do not nest), served by the server's sandbox registry.
import { ApiError } from '../errors.js';
import { parse as parseInput } from '../validation.js';
import { DEFAULT_ORIGIN } from '../inprocess/index.js';
import { SandboxPageQuerySchema, type CreateSandboxInput, type SandboxInfo, type SandboxPage, type SandboxPageQuery } from '../schemas/sandboxes.js';
import type { SandboxDirectory } from './sandbox-directory.js';
import type { MockControl } from './api.js';

export class SandboxControl {
  /** `directory`: the server's sandboxes at the default mock, null in a sandbox. */
  constructor(private readonly directory: SandboxDirectory | null) {}

  /**
   * Creates a sandbox: a whole mock of its own, from `fixtures`, a saved `snapshot`, or what the server started with.
   * In process its base_url is http://localhost/sandboxes/{id}: `mock.fetch(`${base_url}/api/v3/...`)` reaches it.
   */
  createSandbox(input: CreateSandboxInput = {}, origin = DEFAULT_ORIGIN): Promise<SandboxInfo> {
    return this.sandboxDirectory().create(input, origin);
  }

  /** Live sandboxes, newest first, in pages (`limit` 1..200, default 50; `cursor`). */
  async sandboxes(query: SandboxPageQuery = {}, origin = DEFAULT_ORIGIN): Promise<SandboxPage> {
    return this.sandboxDirectory().list(parseInput(SandboxPageQuerySchema, query, 'query'), origin);
  }

  /** One live sandbox; 404 `sandbox_not_found`. */
  async sandbox(id: string, origin = DEFAULT_ORIGIN): Promise<SandboxInfo> {
    return this.sandboxDirectory().get(id, origin);
  }

  /** Drops a sandbox and everything it held; 404 `sandbox_not_found`. */
  deleteSandbox(id: string): Promise<void> {
    return this.sandboxDirectory().delete(id);
  }

  /** A live sandbox's own in-process control API; 404 `sandbox_not_found`. */
  sandboxControl(id: string): MockControl {
    return this.sandboxDirectory().control(id);
  }

  private sandboxDirectory(): SandboxDirectory {
    if (!this.directory) throw new ApiError('route_not_found', { message: 'Sandboxes are managed at the default mock; they do not nest' });
    return this.directory;
  }
}
