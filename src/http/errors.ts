import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, CODE_TO_STATUS, type ErrorCode } from '../errors.js';
import { databaseTroubleError } from '../db/db-errors.js';
import { describeValidation, type ValidationIssue } from '../lib/validation-message.js';

/** Fastify's own error codes, mapped onto ours. */
const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Content-Type must be application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'Request body is larger than the 1 MiB limit'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'Request body is empty; send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'Request body is not valid JSON'],
};

export function sendError(reply: FastifyReply, code: ErrorCode, message: string, extra?: Record<string, unknown>) {
  return reply
    .code(CODE_TO_STATUS[code])
    .type('application/json')
    .send({ success: false, error: message, code, ...extra });
}

/** Path parameter length limit of the router (routerOptions.maxParamLength in src/app.ts). */
export const MAX_PARAM_LENGTH = 200;

/** Errors the router raises before any route runs (Fastify's frameworkErrors), in our error shape. */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 'invalid_request', `path parameter too long: at most ${MAX_PARAM_LENGTH} characters`);
  return sendError(reply, 'invalid_request', 'The URL is malformed (e.g. a bad percent-encoding)');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return sendError(reply, err.code, err.message, err.extra);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return sendError(reply, 'invalid_request', describeValidation(err.validationContext, err.validation as ValidationIssue[]));
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return sendError(reply, known[0], known[1]);
    if (err instanceof SyntaxError) return sendError(reply, 'invalid_json', `Request body is not valid JSON: ${err.message}`);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      const code = (Object.entries(CODE_TO_STATUS).find(([, s]) => s === err.statusCode)?.[0] ?? 'invalid_request') as ErrorCode;
      return sendError(reply, code, err.message);
    }
    // The database went away or its disk is full: 503 or 507, one place decides (src/db/db-errors.ts).
    const trouble = databaseTroubleError(err);
    if (trouble) {
      req.log.error({ err }, trouble.message);
      reply.headers(trouble.headers ?? {});
      return sendError(reply, trouble.code, trouble.message);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, 'internal_error', 'Internal server error; retry later');
  });

  app.setNotFoundHandler((req, reply) => sendError(reply, 'not_found', `No route ${req.method} ${req.url.split('?')[0]}`));
}
