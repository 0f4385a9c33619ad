import { z } from 'zod';
import type { ZApp } from '../../http/types.js';
import { ErrorResponse, IdParams, responses } from '../../http/schemas.js';
import { IfMatchHeaders, expectedVersions } from '../../http/preconditions.js';
import type { SheetsService } from './sheets.service.js';
import { conflictResponses, etagged, withEtag } from './sheets.routes.js';
import {
  AddColumnBody,
  AddColumnResponse,
  AppendBody,
  ColumnParams,
  ListRevisionsQuery,
  ListRevisionsResponse,
  ReplaceBody,
  ReplaceResponse,
  RevisionParams,
  RevisionResponse,
  SheetResponse,
} from './sheets.schemas.js';

const MatchConflict = ErrorResponse.extend({
  count: z.number().int().optional().describe('How many occurrences were found (ambiguous_match).'),
}).describe('no_match: the text does not occur; ambiguous_match: it occurs more than once (count says how often) and all was not set.');

/** Revisions (earlier versions) and the edits that need no read first. */
export function registerSheetEditRoutes(app: ZApp, sheets: SheetsService) {
  const tags = ['Sheets'];
  const ok = true as const;
  const headers = IfMatchHeaders;

  app.get('/sheets/:id/revisions', {
    schema: {
      tags,
      operationId: 'listSheetRevisions',
      summary: 'Earlier versions of a sheet (not the current one), newest first; the newest 100 are kept',
      params: IdParams,
      querystring: ListRevisionsQuery,
      response: responses(ListRevisionsResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, ...(await sheets.listRevisions(req.auth.userId, req.params.id, req.query)) }),
  });
  app.get('/sheets/:id/revisions/:version', {
    schema: { tags, operationId: 'getSheetRevision', summary: 'One earlier version of a sheet, with its content', params: RevisionParams, response: responses(RevisionResponse, 403, 404) },
    handler: async (req) => ({ success: ok, revision: await sheets.getRevision(req.auth.userId, req.params.id, req.params.version) }),
  });
  app.post('/sheets/:id/revisions/:version/restore', {
    schema: {
      tags,
      operationId: 'restoreSheetRevision',
      summary: 'Make an earlier version current again, as a new version (emits sheet.updated)',
      params: RevisionParams,
      headers,
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
      headers,
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
      headers,
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
      headers,
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
      headers,
      response: { ...responses(etagged(SheetResponse), 403, 404), ...conflictResponses },
    },
    handler: async (req, reply) => {
      return withEtag(reply, { success: ok, ...(await sheets.removeColumn(req.auth, req.params.id, req.params.col, expectedVersions(req.headers['if-match']))) });
    },
  });
}
