// The empty fixture: what an instance holds when no fixture is given.
export const EMPTY_FIXTURE: Record<string, never> = Object.freeze({}) as Record<string, never>;
