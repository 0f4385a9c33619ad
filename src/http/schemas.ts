import { z } from 'zod';

/** Shapes shared by every module's routes. */
export const ErrorResponse = z
  .object({
    success: z.literal(false),
    error: z.string().describe('What went wrong, naming the field or cause.'),
    code: z.string().describe('Stable machine code, e.g. invalid_request, unauthorized, forbidden, not_found, rate_limited.'),
    required_scope: z.string().optional().describe('With insufficient_scope (403): the scope the credential lacks.'),
    required_role: z.string().optional().describe('With forbidden (403) in a workspace: the role the action needs (owner, admin, editor or viewer).'),
  })
  .meta({ id: 'Error' });

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed.',
  401: 'The API key is missing, malformed, unknown or disabled.',
  403: "The resource belongs to another account, or the plan doesn't include this feature.",
  404: 'No resource with this id.',
  409: 'Conflict with the current state.',
  412: 'version_conflict: the record is not at the version If-Match or expected_version names; current_version tells which it is. Nothing changed.',
  413: 'The body is larger than 1 MiB.',
  415: 'The body is not application/json.',
  422: 'idempotency_key_reused: this Idempotency-Key was used for a different request (method, path or body) within 24 hours.',
  429: "The plan's requests-per-minute limit is exceeded.",
  500: 'Internal failure; retry later.',
  502: 'The AI provider failed or timed out.',
  503: 'A required backend (such as the AI provider) is not configured.',
};

/** A 412 also names the version the record is at (the serializer drops fields a schema does not list). */
const VersionConflictError = ErrorResponse.extend({ current_version: z.number().int().describe('The version the record is at now.') });

const described = (status: ErrorStatus) => (status === 412 ? VersionConflictError : ErrorResponse).describe(ERROR_DESCRIPTIONS[status]);

/** Response map for a route: its 200 schema plus the error statuses it can return. */
export function responses<T extends z.ZodType>(ok: T, ...statuses: ErrorStatus[]) {
  const all = new Set<ErrorStatus>([400, 401, 429, 500, ...statuses]);
  const map: Record<number, z.ZodType> = { 200: ok };
  for (const s of all) map[s] = described(s);
  return map as { 200: T } & Record<number, z.ZodType>;
}
