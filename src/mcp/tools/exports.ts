import type { Container } from '../../container.js';
import { IdParams } from '../../http/schemas.js';
import { CreateExportBody, CreateExportResponse } from '../../modules/exports/exports.schemas.js';
import { ADDITIVE, type ToolRegistry } from '../tool.js';

/**
 * `origin` is the public origin the download link starts with, as REST's publicOrigin gives it:
 * PUBLIC_URL, else the origin the MCP client used (HTTP) or the one `serve` would answer on (stdio).
 */
export function registerExportTools(t: ToolRegistry, c: Container, origin: string): void {
  t.define('export_sheet', {
    title: 'Export a sheet as a file',
    description:
      'Render one sheet as a file and get a download link: format markdown (YAML front matter, columns separated by ---), ' +
      'html (a standalone, sanitized page), txt (plain text) or json (the sheet record). The url downloads without an API key ' +
      'until expires_at (24 hours); give it to the user. Each call makes a new file. Fires export.completed.',
    input: CreateExportBody.extend({ id: IdParams.shape.id.describe('Sheet id, e.g. sht_01j...') }),
    output: CreateExportResponse,
    annotations: ADDITIVE,
    run: async (args, auth) => ({ success: true as const, ...(await c.exports.create(auth.userId, args.id, args.format, origin)) }),
  });
}
