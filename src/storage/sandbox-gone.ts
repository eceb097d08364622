// The one error a sandbox's storage throws once the sandbox has ended (deleted, or expired): the HTTP layer answers 404.
/**
 * The sandbox is no longer there: deleted or expired, through this instance or another. Its liveness is checked inside
 * each commit (a memory sandbox's gate, the compare-and-set on a shared sandbox's registry row), so a write that would
 * commit after the end stores nothing and its request answers 404 `sandbox_not_found`, never 503.
 */
export class SandboxGone extends Error {
  constructor(readonly id: string) {
    super(`sandbox ${id} was deleted or expired`);
    this.name = 'SandboxGone';
  }
}
