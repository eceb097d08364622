// The face of src/openapi/: what code outside the folder imports from it (nothing reaches past this file).
export { VerificationFailureSchema, VerifyAnswerSchema } from './control-verify-schemas.js';
export { ERROR_RESPONSES, errorResponses, errorStatusesOf } from './error-responses.js';
export { securityOf, securitySchemes, type SecurityOptions } from './security.js';
export {
  ManagementErrorSchema,
  ApprovalDecisionResponseSchema,
  ApprovalPageSchema,
  JobPageSchema,
  BrokerCallbackResponseSchema,
  ChatWebhookResponseSchema,
  ReleasePageSchema,
  UserPageSchema,
} from './schemas.js';
export {
  named,
  BEARER,
  READ_ERRORS,
  WRITE_ERRORS,
  json,
  BEARER_OR_ADMIN_KEY,
  type ErrorStatus,
  type Named,
  type OperationSpec,
  type SuccessResponse,
  type AnySchema,
  type ObjectSchema,
} from './operation-spec.js';
export * as controlSchemas from './control-schemas.js';
export { CoverageNextSchema, TimelineAnswerSchema } from './control-inspect.js';
export { BundleDocumentSchema, ClientReportSchema, HarDocumentSchema } from './control-reproduce.js';
