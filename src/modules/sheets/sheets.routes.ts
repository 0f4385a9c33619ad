import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { ZApp } from '../../http/types.js';
import { IdParams, responses } from '../../http/schemas.js';
import {
  IfMatchHeaders,
  IfNoneMatchHeaders,
  NotModifiedResponse,
  VersionConflictResponse,
  etagOf,
  expectedVersions,
  notModified,
  sendNotModified,
} from '../../http/preconditions.js';
import type { SheetsService } from './sheets.service.js';
import { registerSheetEditRoutes } from './sheets.edits.routes.js';
import { GetSheetQuery, GetSheetResponse, readSheet, registerSheetReadRoutes } from './sheets.read.js';
import {
  CreateSheetBody,
  CreateSheetResponse,
  DeleteSheetQuery,
  ListSheetsQuery,
  ListSheetsResponse,
  SheetResponse,
  TrashSheetResponse,
  UpdateSheetBody,
  type SheetView,
} from './sheets.schemas.js';

/** Answers that return one sheet carry its version as the ETag. */
export function withEtag<T extends { sheet: SheetView }>(reply: FastifyReply, body: T): T {
  reply.header('etag', etagOf(body.sheet.version));
  return body;
}

export const conflictResponses = {
  412: VersionConflictResponse.describe('Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed.'),
};

/** Documents the ETag response header of a 200 that returns one sheet (OpenAPI only; parsing is unchanged). */
export const etagged = <T extends z.ZodType>(schema: T): T =>
  schema.meta({ headers: { ETag: { type: 'string', description: 'The sheet\'s version in quotes, e.g. "7": send it back in If-Match or If-None-Match.' } } } as never);

export function registerSheetRoutes(app: ZApp, sheets: SheetsService) {
  const tags = ['Sheets'];
  const ok = true as const;

  app.get('/sheets', {
    schema: { tags, operationId: 'listSheets', summary: 'List own sheets, or search them with q', querystring: ListSheetsQuery, response: responses(ListSheetsResponse) },
    handler: async (req) => ({ success: ok, ...(await sheets.list(req.auth.userId, req.query)) }),
  });
  app.get('/sheets/:id', {
    schema: {
      tags,
      operationId: 'getSheet',
      summary: 'Fetch one sheet (trashed sheets too, with trashedAt set); ETag is its version, If-None-Match answers 304',
      params: IdParams,
      querystring: GetSheetQuery,
      headers: IfNoneMatchHeaders,
      response: { ...responses(etagged(GetSheetResponse), 403, 404), 304: NotModifiedResponse },
    },
    handler: async (req, reply) => {
      const sheet = await sheets.get(req.auth.userId, req.params.id);
      if (notModified(req.headers['if-none-match'], sheet.version)) return sendNotModified(reply, sheet.version);
      return withEtag(reply, { success: ok, ...(await readSheet(sheet, req.query)) });
    },
  });
  app.post('/sheets', {
    schema: { tags, operationId: 'createSheet', summary: 'Create a sheet (version 1; ETag "1")', body: CreateSheetBody, response: responses(etagged(CreateSheetResponse), 413, 415) },
    handler: async (req, reply) => {
      const sheet = await sheets.create(req.auth, req.body);
      return withEtag(reply, { success: ok, id: sheet.id, title: sheet.title, sheet });
    },
  });
  app.put('/sheets/:id', {
    schema: {
      tags,
      operationId: 'updateSheet',
      summary: 'Update a sheet atomically; content merges by column key. If-Match or expected_version: write only at that version',
      params: IdParams,
      headers: IfMatchHeaders,
      body: UpdateSheetBody,
      response: { ...responses(etagged(SheetResponse), 403, 404, 413, 415), ...conflictResponses },
    },
    handler: async (req, reply) => {
      const { expected_version, ...patch } = req.body;
      const expected = expectedVersions(req.headers['if-match'], expected_version);
      return withEtag(reply, { success: ok, sheet: await sheets.update(req.auth, req.params.id, patch, expected) });
    },
  });
  app.delete('/sheets/:id', {
    schema: {
      tags,
      operationId: 'deleteSheet',
      summary: 'Move a sheet to the trash (or remove it for good with permanent=true, revisions included); If-Match: only at that version',
      params: IdParams,
      headers: IfMatchHeaders,
      querystring: DeleteSheetQuery,
      response: { ...responses(TrashSheetResponse, 403, 404), ...conflictResponses },
    },
    handler: async (req) => {
      const expected = expectedVersions(req.headers['if-match']);
      return { success: ok, ...(await sheets.remove(req.auth, req.params.id, req.query.permanent, expected)) };
    },
  });
  app.post('/sheets/:id/restore', {
    schema: {
      tags,
      operationId: 'restoreSheet',
      summary: 'Bring a trashed sheet back (a new version); If-Match: only at that version',
      params: IdParams,
      headers: IfMatchHeaders,
      response: { ...responses(etagged(SheetResponse), 403, 404), ...conflictResponses },
    },
    handler: async (req, reply) => withEtag(reply, { success: ok, sheet: await sheets.restore(req.auth, req.params.id, expectedVersions(req.headers['if-match'])) }),
  });
  registerSheetEditRoutes(app, sheets);
  registerSheetReadRoutes(app, sheets);
}
