import type { FastifyInstance, onResponseAsyncHookHandler, onSendAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { IDEMPOTENCY_KEY_RULE, checkIdempotencyKey, idempotencyOwner, requestFingerprint, type IdempotencyClaim, type IdempotencyService } from '../modules/idempotency/idempotency.service.js';
import { ErrorResponse } from './schemas.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: IdempotencyClaim | null;
  }
}

export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      `${IDEMPOTENCY_KEY_RULE}, else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer ` +
        '(status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. ' +
        'Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress.',
    ),
});

/** Documents the header a replayed answer carries, beside the ETag some answers already declare. */
const REPLAYED_HEADER = {
  'Idempotent-Replayed': { type: 'string', enum: ['true'], description: 'Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key.' },
};
function withReplayedHeader(schema: z.ZodType): z.ZodType {
  const { id: _id, ...meta } = (schema.meta() ?? {}) as { id?: string; headers?: Record<string, unknown> };
  return schema.meta({ ...meta, headers: { ...meta.headers, ...REPLAYED_HEADER } } as never);
}

/**
 * A kept answer is its body; an answer with an ETag keeps it in a first line ahead of the JSON
 * ("etag <value>"), so a replay carries the same ETag.
 */
const ETAG_LINE = 'etag ';
function packAnswer(etag: unknown, payload: string): string {
  return typeof etag === 'string' ? `${ETAG_LINE}${etag}\n${payload}` : payload;
}
function unpackAnswer(stored: string): { etag?: string; body: string } {
  if (!stored.startsWith(ETAG_LINE)) return { body: stored };
  const end = stored.indexOf('\n');
  return { etag: stored.slice(ETAG_LINE.length, end), body: stored.slice(end + 1) };
}

const IN_PROGRESS = ErrorResponse.describe('Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running.');
const REUSED = ErrorResponse.describe('idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body).');

/** A route's own 409/422 keeps its meaning and gains the idempotency one in its description. */
function alsoMeans(own: unknown, idempotent: z.ZodType, code: string, meaning: string): unknown {
  if (own === undefined) return idempotent;
  if (!(own instanceof z.ZodType) || own.description?.includes(code)) return own;
  return own.describe(`${own.description ?? 'Conflict with the current state.'} Also ${code}: ${meaning}`);
}

/**
 * Idempotency-Key on every POST of this scope (register it before the routes). The key is claimed in
 * the database before the handler runs (so it holds across processes and restarts), the 2xx answer is
 * stored before it is sent, and any other answer frees the key again.
 */
export function registerIdempotency(scope: FastifyInstance, idempotency: IdempotencyService): void {
  if (!scope.hasRequestDecorator('idempotencyClaim')) scope.decorateRequest('idempotencyClaim', null);

  const claimOrReplay: preValidationAsyncHookHandler = async (req, reply) => {
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    const key = checkIdempotencyKey(header, 'header Idempotency-Key');
    // The onRequest hook has already checked this credential (expiry, status) and the route's scope;
    // the stored answer is this credential's own, so nothing it could not get itself is replayed.
    const outcome = await idempotency.begin(idempotencyOwner(req.auth), key, requestFingerprint(req.method, req.url, req.body));
    if (outcome.kind === 'run') {
      req.idempotencyClaim = outcome;
      return;
    }
    const { etag, body } = unpackAnswer(outcome.response);
    reply.code(outcome.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8');
    if (etag !== undefined) reply.header('etag', etag);
    return reply.serializer((payload: unknown) => payload as string).send(body);
  };

  const storeAnswer: onSendAsyncHookHandler = async (req, reply, payload) => {
    const claim = req.idempotencyClaim;
    if (!claim) return payload;
    req.idempotencyClaim = null;
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') await claim.complete(reply.statusCode, packAnswer(reply.getHeader('etag'), payload));
    else await claim.release();
    return payload;
  };

  // A request that ended without an answer (the client went away mid-way) frees its key too.
  const releaseUnanswered: onResponseAsyncHookHandler = async (req) => {
    const claim = req.idempotencyClaim;
    if (!claim) return;
    req.idempotencyClaim = null;
    await claim.release();
  };

  // The hooks are the POST routes' own: other methods (every GET) do not pass through three more async hooks.
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    if (methods.length > 1) throw new Error(`${route.url}: idempotency hooks need a POST-only route`);
    route.preValidation = [...hooksOf(route.preValidation), claimOrReplay];
    route.onSend = [...hooksOf(route.onSend), storeAnswer];
    route.onResponse = [...hooksOf(route.onResponse), releaseUnanswered];
    const schema = (route.schema ??= {});
    const headers = schema.headers as z.ZodObject | undefined;
    // Documentation only: the hook checks the header before validation, with its own message.
    schema.headers = headers instanceof z.ZodObject ? headers.extend(IdempotencyHeaders.shape) : IdempotencyHeaders.loose();
    if (schema.response && typeof schema.response === 'object') {
      const responses = schema.response as Record<string, unknown>;
      responses[409] = alsoMeans(responses[409], IN_PROGRESS, 'idempotency_key_in_progress', 'a request with this Idempotency-Key is still running.');
      responses[422] = alsoMeans(responses[422], REUSED, 'idempotency_key_reused', 'this Idempotency-Key was used within 24 hours for a different request.');
      for (const code of Object.keys(responses)) {
        const schema = responses[code];
        if (/^2\d\d$/.test(code) && schema instanceof z.ZodType) responses[code] = withReplayedHeader(schema);
      }
    }
  });
}

const hooksOf = <H>(hooks: H | H[] | undefined): H[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);
