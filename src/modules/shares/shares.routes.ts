import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requestOrigin } from '../../http/origin.js';
import { responses } from '../../http/schemas.js';
import type { ZApp } from '../../http/types.js';
import { withoutRemoteImages } from './shares.page.js';
import { SHARE_PAGE_PATH, type SharesService } from './shares.service.js';
import { CreateShareBody, ListSharesResponse, RevokeShareResponse, ShareParams, ShareResponse, SharedSheetResponse, ShareTokenParams } from './shares.schemas.js';
import { IdParams } from '../../lib/schema-fields.js';

const tags = ['Shares'];
const ok = true as const;

/**
 * Managing a sheet's links: under /v1 with a key (sheets:write to make or end one, sheets:read to list);
 * a team sheet's links need the editor role or higher there (shares.manage).
 */
export function registerShareRoutes(app: ZApp, shares: SharesService, publicUrl: string | undefined) {
  app.post('/sheets/:id/shares', {
    schema: {
      tags,
      operationId: 'createSheetShare',
      summary: 'Make a read-only link to a sheet (anyone with the link reads it, no key); the token is returned only here',
      params: IdParams,
      body: CreateShareBody,
      response: responses(ShareResponse, 403, 404, 409, 415),
    },
    handler: async (req) => ({ success: ok, share: await shares.create(req.auth, req.params.id, req.body, requestOrigin(publicUrl, req)) }),
  });
  app.get('/sheets/:id/shares', {
    schema: { tags, operationId: 'listSheetShares', summary: "A sheet's live and expired links (never their tokens)", params: IdParams, response: responses(ListSharesResponse, 403, 404) },
    handler: async (req) => ({ success: ok, shares: await shares.list(req.auth, req.params.id) }),
  });
  app.delete('/sheets/:id/shares/:share_id', {
    schema: { tags, operationId: 'revokeSheetShare', summary: 'End a link at once', params: ShareParams, response: responses(RevokeShareResponse, 403, 404) },
    handler: async (req) => ({ success: ok, ...(await shares.revoke(req.auth, req.params.id, req.params.share_id)) }),
  });
}

/**
 * Nothing of a shared page may run, be framed, leak the link in a Referer, load anything from elsewhere
 * (img-src data: only: shares.page.ts turns remote images into links), or be indexed.
 */
function readOnlyHeaders(reply: FastifyReply) {
  return reply
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox");
}

/** A keyless route's answers: the responses() map without the 401 it can never give. */
function publicResponses<T extends z.ZodType>(ok: T) {
  const { 401: _never, ...map } = responses(ok, 404);
  return map as typeof map & { 200: T };
}

/** Reading through a link: no key, outside the authenticated scope; `limit` refuses a client address over its allowance. */
export function registerSharedReadRoutes(app: ZApp, shares: SharesService, limit: (req: FastifyRequest, reply: FastifyReply) => Promise<void>) {
  app.get('/v1/shared/:token', {
    schema: {
      tags,
      operationId: 'readSharedSheet',
      summary: 'A shared sheet as JSON, through its link token (no key); unknown, expired and revoked links are 404 alike',
      security: [],
      params: ShareTokenParams,
      response: publicResponses(SharedSheetResponse),
    },
    handler: async (req, reply) => {
      await limit(req, reply);
      const sheet = await shares.read(req.params.token);
      readOnlyHeaders(reply);
      return { success: ok, sheet };
    },
  });
  app.get(`${SHARE_PAGE_PATH}/:token`, {
    schema: { hide: true, params: ShareTokenParams },
    handler: async (req, reply) => {
      await limit(req, reply);
      const page = withoutRemoteImages(await shares.page(req.params.token));
      return readOnlyHeaders(reply).header('content-type', 'text/html; charset=utf-8').send(page);
    },
  });
}
