/** The one error type of the service. Services throw it; src/http/errors.ts maps `code` to a status. */
export const CODE_TO_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  no_match: 409,
  ambiguous_match: 409,
  idempotency_key_in_progress: 409,
  version_conflict: 412,
  idempotency_key_reused: 422,
  insufficient_scope: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  provider_error: 502,
  provider_not_configured: 503,
  unavailable: 503,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof CODE_TO_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly headers?: Record<string, string>;
  /** Extra top-level fields of the error body (current_version, count, required_scope). */
  readonly extra?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, headers?: Record<string, string>, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.headers = headers;
    this.extra = extra;
  }

  get status(): number {
    return CODE_TO_STATUS[this.code];
  }
}

export const notFound = (what: string, id: string) => new AppError('not_found', `${what} ${id} not found`);
export const forbidden = (what: string, id: string) => new AppError('forbidden', `${what} ${id} belongs to another account`);
export const invalid = (message: string) => new AppError('invalid_request', message);
export const versionConflict = (what: string, id: string, current: number) =>
  new AppError('version_conflict', `${what} ${id} is at version ${current}, not the version this write expected`, undefined, { current_version: current });
