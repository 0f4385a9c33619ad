import { z } from 'zod';
import { Timestamp } from '../../http/schemas.js';

export const EXPORT_FORMATS = ['markdown', 'html', 'txt', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CreateExportBody = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'format must be one of markdown, html, txt, json' }),
});

export const CreateExportResponse = z.object({
  success: z.literal(true),
  export_id: z.string(),
  format: z.enum(EXPORT_FORMATS),
  url: z.string().describe('Absolute address of the file. Downloads without an API key until expires_at (24 hours).'),
  expires_at: Timestamp,
});

export const ExportTokenParams = z.object({ token: z.string().min(1).max(200) });
