import type { ZApp } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import { contentDisposition } from './exports.render.js';
import { CreateExportBody, CreateExportResponse, ExportParams, ExportsQuery, ExportTokenParams, ListExportsResponse, RevokeExportResponse } from './exports.schemas.js';
import { EXPORT_PATH, type ExportsService } from './exports.service.js';

/** PUBLIC_URL when set (behind a proxy), else the listen address (src/http/origin.ts: never an arbitrary Host header). */
export const publicOrigin = requestOrigin;

/** POST /v1/sheets/{id}/export and the export management routes, inside the authenticated scope. */
export function registerExportRoutes(app: ZApp, exports: ExportsService, publicUrl: string | undefined) {
  app.post('/sheets/:id/export', {
    schema: {
      tags: ['Sheets'],
      operationId: 'exportSheet',
      summary: 'Export a sheet as Markdown, HTML, plain text or JSON; the url downloads without a key for 24 hours',
      params: IdParams,
      body: CreateExportBody,
      response: responses(CreateExportResponse, 403, 404, 415),
    },
    handler: async (req) => ({
      success: true as const,
      ...(await exports.create(req.auth, req.params.id, req.body, publicOrigin(publicUrl, req))),
    }),
  });
  registerExportManagementRoutes(app, exports);
}

/** A sheet's download links: list the live ones (its readers), revoke one (its writers). */
function registerExportManagementRoutes(app: ZApp, exports: ExportsService) {
  app.get('/sheets/:id/exports', {
    schema: {
      tags: ['Sheets'],
      operationId: 'listSheetExports',
      summary: "List a sheet's exports that can still be downloaded",
      params: IdParams,
      querystring: ExportsQuery,
      response: responses(ListExportsResponse, 403, 404),
    },
    handler: async (req) => ({ success: true as const, exports: await exports.list(req.auth, req.params.id, req.query.workspace_id) }),
  });
  app.delete('/sheets/:id/exports/:export_id', {
    schema: {
      tags: ['Sheets'],
      operationId: 'revokeSheetExport',
      summary: 'Revoke one export: its download url answers 404 from now on',
      params: ExportParams,
      querystring: ExportsQuery,
      response: responses(RevokeExportResponse, 403, 404),
    },
    handler: async (req) => ({ success: true as const, ...(await exports.revoke(req.auth, req.params.id, req.params.export_id, req.query.workspace_id)) }),
  });
}

/** GET /exports/{token}: outside /v1, no API key; the token is the credential. */
export function registerExportDownloadRoute(app: ZApp, exports: ExportsService) {
  app.get(`${EXPORT_PATH}/:token`, {
    schema: { hide: true, params: ExportTokenParams },
    handler: async (req, reply) => {
      const file = await exports.download(req.params.token);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.filename))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('content-security-policy', "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox")
        .send(file.body);
    },
  });
}
