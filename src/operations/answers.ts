// The success answers the /_mock operations share: 200 with a named JSON body.
import { named, type AnySchema, type Named, type SuccessResponse } from '../openapi/operation-spec.js';
import * as A from '../openapi/control-schemas.js';
import { VerifyAnswerSchema } from '../openapi/control-verify-schemas.js';

/** A control answer: 200 with a named JSON body. */
export const answer = <S extends AnySchema>(name: string, schema: S, description = 'The answer'): SuccessResponse<S> & { body: Named & { schema: S } } => ({
  status: 200,
  description,
  body: named(name, schema),
});
export const Cleared = answer('ControlClearedAnswer', A.ClearedAnswerSchema, 'How many were removed');
export const Clock = answer('ControlClock', A.ClockAnswerSchema, 'The mock clock');
export const Run = answer('ControlRun', A.ControlRunSchema, 'The run');
export const VerifyAnswer = answer('ControlVerifyAnswer', VerifyAnswerSchema, 'The journal satisfies it: how many entries matched, and their ids');
export const Simulation = answer('ControlSimulation', A.SimulationAnswerSchema, 'The simulation');
