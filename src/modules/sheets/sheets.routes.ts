import type { ZApp } from '../../http/types.js';
import { IdParams, responses } from '../../http/schemas.js';
import type { SheetsService } from './sheets.service.js';
import {
  CreateSheetBody,
  CreateSheetResponse,
  DeleteSheetQuery,
  ListSheetsQuery,
  ListSheetsResponse,
  SheetResponse,
  TrashSheetResponse,
  UpdateSheetBody,
} from './sheets.schemas.js';

export function registerSheetRoutes(app: ZApp, sheets: SheetsService) {
  const tags = ['Sheets'];
  const ok = true as const;

  app.get('/sheets', {
    schema: { tags, operationId: 'listSheets', summary: 'List own sheets, or search them with q', querystring: ListSheetsQuery, response: responses(ListSheetsResponse) },
    handler: async (req) => ({ success: ok, ...(await sheets.list(req.auth.userId, req.query)) }),
  });
  app.get('/sheets/:id', {
    schema: { tags, operationId: 'getSheet', summary: 'Fetch one sheet (trashed sheets too, with trashedAt set)', params: IdParams, response: responses(SheetResponse, 403, 404) },
    handler: async (req) => ({ success: ok, sheet: await sheets.get(req.auth.userId, req.params.id) }),
  });
  app.post('/sheets', {
    schema: { tags, operationId: 'createSheet', summary: 'Create a sheet', body: CreateSheetBody, response: responses(CreateSheetResponse, 413, 415) },
    handler: async (req) => {
      const sheet = await sheets.create(req.auth.userId, req.body);
      return { success: ok, id: sheet.id, title: sheet.title, sheet };
    },
  });
  app.put('/sheets/:id', {
    schema: { tags, operationId: 'updateSheet', summary: 'Update a sheet; content merges by column key', params: IdParams, body: UpdateSheetBody, response: responses(SheetResponse, 403, 404, 413, 415) },
    handler: async (req) => ({ success: ok, sheet: await sheets.update(req.auth.userId, req.params.id, req.body) }),
  });
  app.delete('/sheets/:id', {
    schema: { tags, operationId: 'deleteSheet', summary: 'Move a sheet to the trash (or remove it for good with permanent=true)', params: IdParams, querystring: DeleteSheetQuery, response: responses(TrashSheetResponse, 403, 404) },
    handler: async (req) => ({ success: ok, ...(await sheets.remove(req.auth.userId, req.params.id, req.query.permanent)) }),
  });
  app.post('/sheets/:id/restore', {
    schema: { tags, operationId: 'restoreSheet', summary: 'Bring a trashed sheet back', params: IdParams, response: responses(SheetResponse, 403, 404) },
    handler: async (req) => ({ success: ok, sheet: await sheets.restore(req.auth.userId, req.params.id) }),
  });
}
