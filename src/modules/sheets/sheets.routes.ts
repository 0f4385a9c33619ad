import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { expectedVersions } from '../../auth/expected-versions.js';
import type { ZApp } from '../../http/types.js';
import { ErrorResponse, responses } from '../../http/schemas.js';
import { IfMatchHeaders, IfNoneMatchHeaders, NotModifiedResponse, VersionConflictResponse, etagOf, notModified, sendNotModified } from '../../http/preconditions.js';
import { IdParams } from '../../lib/schema-fields.js';
import { outlineColumns } from './sheets.outline.js';
import { plainSheetAnswer } from './sheets.hot.routes.js';
import { readSheet, windowRequest } from './sheets.read.js';
import type { SheetsService } from './sheets.service.js';
import {
  AddColumnBody,
  AddColumnResponse,
  AppendBody,
  ColumnParams,
  CreateSheetBody,
  CreateSheetResponse,
  DeleteSheetQuery,
  GetSheetQuery,
  GetSheetResponse,
  ListRevisionsQuery,
  ListRevisionsResponse,
  ListSheetsQuery,
  ListSheetsResponse,
  OutlineResponse,
  ReplaceBody,
  ReplaceResponse,
  RevisionParams,
  RevisionResponse,
  SheetResponse,
  TrashSheetResponse,
  UpdateSheetBody,
  type SheetView,
} from './sheets.schemas.js';

/**
 * The sheet routes: thin adapters over SheetsService (rules there and in the files it composes, queries in
 * sheets.repo.ts, search in ../search/substring/owned-list.ts). sheets.hot.routes.ts answers a plain GET /sheets/{id} before
 * Fastify; sharing a sheet is src/modules/shares.
 */

/** The type of answers sent as JSON already built (the plain list page, a create), not through the response schema. */
const JSON_TEXT = 'application/json; charset=utf-8';

/** Answers that return one sheet carry its version as the ETag. */
export function withEtag<T extends { sheet: SheetView }>(reply: FastifyReply, body: T): T {
  reply.header('etag', etagOf(body.sheet.version));
  return body;
}

const conflictResponses = {
  412: VersionConflictResponse.describe('Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed.'),
};

/** Documents the ETag response header of a 200 that returns one sheet (OpenAPI only; parsing is unchanged). */
export const etagged = <T extends z.ZodType>(schema: T): T =>
  schema.meta({ headers: { ETag: { type: 'string', description: 'The sheet\'s version in quotes, e.g. "7": send it back in If-Match or If-None-Match.' } } } as never);

const MatchConflict = ErrorResponse.extend({
  count: z.number().int().optional().describe('How many occurrences were found (ambiguous_match).'),
}).describe('no_match: the text does not occur; ambiguous_match: it occurs more than once (count says how often) and all was not set.');

export function registerSheetRoutes(app: ZApp, sheets: SheetsService) {
  const tags = ['Sheets'];
  const ok = true as const;

  app.get('/sheets', {
    schema: {
      tags,
      operationId: 'listSheets',
      summary: 'List the sheets of a workspace (workspace_id; default your personal one), or search them with q',
      querystring: ListSheetsQuery,
      response: responses(ListSheetsResponse),
    },
    handler: async (req, reply) => {
      // The plain page comes as bytes built from the stored JSON (SheetsService.listJson); q or fields go through the schema.
      const json = await sheets.listJson(req.auth, req.query);
      if (json) return reply.type(JSON_TEXT).send(json);
      return { success: ok, ...(await sheets.list(req.auth, req.query)) };
    },
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
      if (!windowRequest(req.query)) {
        // The sheet as stored: the same handler body as the hot route's (sheets.hot.routes.ts), the same bytes.
        const plain = plainSheetAnswer(await sheets.getJson(req.auth, req.params.id), req.headers['if-none-match']);
        reply.header('etag', plain.etag);
        return plain.body ? reply.type(JSON_TEXT).send(plain.body as never) : reply.code(304).send(undefined as never);
      }
      const sheet = await sheets.get(req.auth, req.params.id);
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

  // Revisions (earlier versions) and the edits that need no read first.
  app.get('/sheets/:id/revisions', {
    schema: {
      tags,
      operationId: 'listSheetRevisions',
      summary: 'Earlier versions of a sheet (not the current one), newest first; the newest 100 are kept',
      params: IdParams,
      querystring: ListRevisionsQuery,
      response: responses(ListRevisionsResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, ...(await sheets.listRevisions(req.auth, req.params.id, req.query)) }),
  });
  app.get('/sheets/:id/revisions/:version', {
    schema: { tags, operationId: 'getSheetRevision', summary: 'One earlier version of a sheet, with its content', params: RevisionParams, response: responses(RevisionResponse, 403, 404) },
    handler: async (req) => ({ success: ok, revision: await sheets.getRevision(req.auth, req.params.id, req.params.version) }),
  });
  app.post('/sheets/:id/revisions/:version/restore', {
    schema: {
      tags,
      operationId: 'restoreSheetRevision',
      summary: 'Make an earlier version current again, as a new version (emits sheet.updated)',
      params: RevisionParams,
      headers: IfMatchHeaders,
      response: { ...responses(etagged(SheetResponse), 403, 404), ...conflictResponses },
    },
    handler: async (req, reply) => {
      const sheet = await sheets.restoreRevision(req.auth, req.params.id, req.params.version, expectedVersions(req.headers['if-match']));
      return withEtag(reply, { success: ok, sheet });
    },
  });

  app.post('/sheets/:id/append', {
    schema: {
      tags,
      operationId: 'appendToSheet',
      summary: 'Append HTML to one column in one atomic step (no read needed); default the highest-numbered column',
      params: IdParams,
      headers: IfMatchHeaders,
      body: AppendBody,
      response: { ...responses(etagged(SheetResponse), 403, 404, 413, 415), ...conflictResponses },
    },
    handler: async (req, reply) => {
      const { expected_version, ...input } = req.body;
      return withEtag(reply, { success: ok, ...(await sheets.append(req.auth, req.params.id, input, expectedVersions(req.headers['if-match'], expected_version))) });
    },
  });
  app.post('/sheets/:id/replace', {
    schema: {
      tags,
      operationId: 'replaceInSheet',
      summary: 'Find plain text in the stored HTML and replace it; without all, exactly one occurrence must exist',
      params: IdParams,
      headers: IfMatchHeaders,
      body: ReplaceBody,
      response: { ...responses(etagged(ReplaceResponse), 403, 404, 413, 415), 409: MatchConflict, ...conflictResponses },
    },
    handler: async (req, reply) => {
      const { expected_version, ...input } = req.body;
      return withEtag(reply, { success: ok, ...(await sheets.replace(req.auth, req.params.id, input, expectedVersions(req.headers['if-match'], expected_version))) });
    },
  });
  app.post('/sheets/:id/columns', {
    schema: {
      tags,
      operationId: 'addSheetColumn',
      summary: 'Add the lowest unused column key, empty unless html is given',
      params: IdParams,
      headers: IfMatchHeaders,
      body: AddColumnBody,
      response: { ...responses(etagged(AddColumnResponse), 403, 404, 409, 413, 415), ...conflictResponses },
    },
    handler: async (req, reply) => {
      const { expected_version, ...input } = req.body;
      return withEtag(reply, { success: ok, ...(await sheets.addColumn(req.auth, req.params.id, input, expectedVersions(req.headers['if-match'], expected_version))) });
    },
  });
  app.delete('/sheets/:id/columns/:col', {
    schema: {
      tags,
      operationId: 'removeSheetColumn',
      summary: 'Remove one column (404 when the sheet has no such column)',
      params: ColumnParams,
      headers: IfMatchHeaders,
      response: { ...responses(etagged(SheetResponse), 403, 404), ...conflictResponses },
    },
    handler: async (req, reply) => {
      return withEtag(reply, { success: ok, ...(await sheets.removeColumn(req.auth, req.params.id, req.params.col, expectedVersions(req.headers['if-match']))) });
    },
  });

  // Registered last: the OpenAPI document lists /sheets/{id}/columns' POST before this GET.
  app.get('/sheets/:id/columns', {
    schema: {
      tags,
      operationId: 'outlineSheet',
      summary: 'Outline of a sheet: per column its size, lines and headings, to choose what to read',
      params: IdParams,
      response: responses(OutlineResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, columns: await outlineColumns((await sheets.get(req.auth, req.params.id)).content) }),
  });
}
