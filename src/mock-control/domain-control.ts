// The control operations that drive the domain and the simulation (runs, codes, desired state, simulation settings), apart from the session's own records.
import type { WriteDeps } from '../deps.js';
import { createRun, transitionRun } from '../domain/index.js';
import { mintAuthorizationCode, type MintedCode } from '../domain/index.js';
import { AuthCodeRequestSchema, type AuthCodeRequest, type CreateRunInput, type TransitionInput } from '../schemas/index.js';
import { parse as parseInput } from '../validation.js';
import { applyDesiredState, compileReleaseFromHead, type ApplyResult } from '../domain/index.js';
import { ApplyDesiredStateSchema, CompileReleaseSchema, type ApplyDesiredStateInput, type CompileReleaseInput } from '../schemas/index.js';
import {
  BehavioursSchema,
  SimulationRunRequestSchema,
  SimulationSettingsRequestSchema,
  type BehavioursInput,
  type SimulationRunRequest,
  type SimulationSettingsRequest,
} from '../schemas/index.js';
import type { Simulation } from '../simulation/index.js';

/**
 * Writes get `write`, the domain's WriteDeps (no clock, no store reads), and the simulation's writes: each reads time
 * and state, the references its input names included, through its transaction alone. It holds no reader of the store.
 */
export class DomainControl {
  constructor(
    private readonly write: WriteDeps,
    /** The simulation's status and writes (not its deps: its writes read time through their transactions). */
    private readonly sim: Pick<Simulation, 'status' | 'configure' | 'step' | 'run' | 'setBehaviours'>,
  ) {}

  // ---- the simulation ----

  /** Mode, speed, and the next pending events (at most 100) in time order. */
  simulation() {
    return this.sim.status();
  }

  /** Sets the mode (`auto`, `step`, `off`), the speed of a running clock, and the synthetic chat traffic. */
  async setSimulation(input: SimulationSettingsRequest) {
    // The traffic's chat bindings are checked in the settings' write.
    return this.sim.configure(parseInput(SimulationSettingsRequestSchema, input, 'body'));
  }

  /** Executes exactly the next event (the clock jumps to its time when later) and answers it; `executed: null` when none is pending. */
  stepSimulation() {
    return this.sim.step();
  }

  /** Executes every event up to `until`, or until no run has work left (`idle: true`); more than the bound is a 422 and changes nothing. */
  runSimulation(input: SimulationRunRequest) {
    return this.sim.run(parseInput(SimulationRunRequestSchema, input, 'body'));
  }

  /** Replaces the behaviours (validated: 422 items with `loc`); runs queued from now on follow them. */
  async setBehaviours(input: BehavioursInput) {
    // The projects they name are checked in their write.
    return this.sim.setBehaviours(parseInput(BehavioursSchema, input, 'body'));
  }

  /**
   * Commits a mutation or bundle as the project's new head revision (POST /_mock/projects/{id}/desired-state/apply);
   * the input is validated like the route's body (422 items located under `body`).
   */
  async applyDesiredState(projectId: string, input: ApplyDesiredStateInput): Promise<ApplyResult> {
    return applyDesiredState(this.write, projectId, parseInput(ApplyDesiredStateSchema, input, 'body'));
  }

  /** Compiles the head into a new release, optionally moving a target to it (POST /_mock/projects/{id}/releases). */
  async compileRelease(projectId: string, input: CompileReleaseInput = {}) {
    return compileReleaseFromHead(this.write, projectId, parseInput(CompileReleaseSchema, input, 'body'));
  }

  /** Creates a run in any status, mode and surface; `waiting_approval` also opens a pending approval. */
  createRun(projectId: string, input: CreateRunInput = {}) {
    return createRun(this.write, projectId, input);
  }

  /** Moves a run along a legal edge (else 409 illegal_transition), appending steps/events and merging timing/result. */
  transitionRun(projectId: string, runId: string, input: TransitionInput) {
    return transitionRun(this.write, projectId, runId, input);
  }

  /** Mints an authorization code for a principal and PKCE S256 challenge. */
  mintAuthorizationCode(input: AuthCodeRequest): Promise<MintedCode> {
    return mintAuthorizationCode(this.write, parseInput(AuthCodeRequestSchema, input, 'body'));
  }
}
