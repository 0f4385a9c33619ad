import type { ZApp } from '../../http/types.js';
import { z } from 'zod';
import { responses } from '../../http/schemas.js';
import { contentDisposition } from '../exports/exports.render.js';
import type { AccountExport } from './account.export.js';

export function registerAccountRoutes(app: ZApp, accountExport: AccountExport) {
  app.get('/account/export', {
    schema: {
      tags: ['Account'],
      operationId: 'exportAccount',
      summary: 'Download every record of the account as a zip: JSON (records/) and Markdown (markdown/); needs a full-access credential not restricted to a workspace',
      description:
        'Sheets with their kept revisions, sessions, handovers, knowledge, todos, work logs, user Sparks and webhooks (without secrets). ' +
        '`npm run cli -- users import <zip> --name <name>` recreates the account on any instance.',
      response: responses(z.string().describe('application/zip: the export file.'), 403),
    },
    handler: async (req, reply) => {
      const { filename, stream } = accountExport.open(req.auth);
      return reply.type('application/zip').header('content-disposition', contentDisposition(filename)).header('cache-control', 'no-store').send(stream);
    },
  });
}
