export {
  AutosalesClient,
  DealsResource,
  ClientsResource,
  VehiclesResource,
  LeadsResource,
  StoresResource,
  ActivitiesResource,
  FinancialResource,
  WebhooksResource,
  type AutosalesClientOptions,
  type ApiRequest,
  type ApiResponse,
  type CreateOptions,
  type FetchLike,
  type RequestOptions,
  type RetryInfo,
} from './client.js';
export {
  AutosalesError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  DuplicateEntryError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  type ApiErrorCode,
  type ErrorCode,
  type SdkErrorCode,
} from './errors.js';
export type { HttpMethod } from './retry.js';
export {
  verifyWebhookSignature,
  signWebhookPayload,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  EVENT_ID_HEADER,
  type VerifyOptions,
  type WebhookHeaders,
} from './webhooks.js';
export type * from './types.js';
export { SDK_VERSION } from './version.js';
