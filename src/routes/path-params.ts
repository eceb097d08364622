// Path parameter schemas shared by the v3 routes.
import * as v from 'valibot';
import { Uuid } from '../schemas/common.js';

export const ProjectPath = v.object({ project_id: Uuid });
export const RunPath = v.object({ project_id: Uuid, run_id: Uuid });
export const UserPath = v.object({ project_id: Uuid, user_id: Uuid });
export const ReleasePath = v.object({ project_id: Uuid, release_id: Uuid });
export const ApprovalPath = v.object({ project_id: Uuid, approval_id: v.pipe(v.string(), v.minLength(1)) });
export const ConnectionPath = v.object({ project_id: Uuid, connection_name: v.pipe(v.string(), v.minLength(1)) });
