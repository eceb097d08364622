// Path parameter schemas shared by the v3 routes.
import * as v from 'valibot';
import { Uuid, model } from '../schemas/index.js';

export const ProjectPath = model({ project_id: Uuid });
export const RunPath = model({ project_id: Uuid, run_id: Uuid });
export const UserPath = model({ project_id: Uuid, user_id: Uuid });
export const ReleasePath = model({ project_id: Uuid, release_id: Uuid });
export const ApprovalPath = model({ project_id: Uuid, approval_id: v.pipe(v.string(), v.minLength(1)) });
export const ConnectionPath = model({ project_id: Uuid, connection_name: v.pipe(v.string(), v.minLength(1)) });
