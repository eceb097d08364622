// What the default mock's control surface asks of the sandbox registry (built by createApp, above the control surface).
import type { CreateSandboxInput, SandboxInfo, SandboxPage, SandboxPageQuery } from '../schemas/index.js';
import type { MockControl } from './api.js';

export interface SandboxDirectory {
  /** Validates `input` (422 items under `body`) and builds the sandbox; `origin` prefixes its base_url. */
  create(input: CreateSandboxInput, origin: string): Promise<SandboxInfo>;
  list(query: SandboxPageQuery, origin: string): SandboxPage | Promise<SandboxPage>;
  get(id: string, origin: string): SandboxInfo | Promise<SandboxInfo>;
  delete(id: string): Promise<void>;
  /** The sandbox's own in-process control API. */
  control(id: string): MockControl;
}
