// What the default mock's control surface asks of the sandbox registry (built by createApp, above the control surface).
import type { CreateSandboxInput, SandboxInfo, SandboxPage, SandboxPageQuery } from '../schemas/index.js';

/** `C`: the in-process control API a sandbox offers (mock.control's type, named by its user so this file needs no import of it). */
export interface SandboxDirectory<C = unknown> {
  /** Validates `input` (422 items under `body`) and builds the sandbox; `origin` prefixes its base_url. */
  create(input: CreateSandboxInput, origin: string): Promise<SandboxInfo>;
  list(query: SandboxPageQuery, origin: string): SandboxPage | Promise<SandboxPage>;
  get(id: string, origin: string): SandboxInfo | Promise<SandboxInfo>;
  delete(id: string): Promise<void>;
  /** The sandbox's own in-process control API. */
  control(id: string): C;
}
