import { z } from 'zod';
import { Tags, Timestamp, queryBool, queryInt } from '../../http/schemas.js';

export const COLUMN_KEY = /^col[1-9][0-9]?$/;
const columnKey = z.string().regex(COLUMN_KEY, 'column keys must be col1..col99');
const Html = z.string().max(500_000);

export const Sheet = z
  .object({
    id: z.string(),
    title: z.string(),
    content: z.record(z.string(), z.string()).describe('Column key (col1..col99) to HTML string.'),
    folder: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    trashedAt: Timestamp.nullable().describe('Set while the sheet is in the trash; trashed sheets are purged after 30 days.'),
  })
  .meta({ id: 'Sheet' });
export type SheetView = z.infer<typeof Sheet>;

export const ListSheetsQuery = z.object({
  limit: queryInt('limit').optional().describe('Default 50; values above 100 are clamped to 100.'),
  offset: queryInt('offset').optional(),
  q: z.string().max(200).optional().describe('Words matched (all of them) in the title and the text of the HTML, case-insensitively; works for CJK.'),
  trashed: queryBool('trashed').optional().describe('true lists the trash instead of active sheets.'),
});

export const CreateSheetBody = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(1000),
  content: z.record(columnKey, Html).optional(),
  folder: z.string().max(200).optional(),
  tags: Tags.optional(),
});
export type CreateSheetInput = z.infer<typeof CreateSheetBody>;

export const UpdateSheetBody = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(1000).optional(),
  content: z.record(columnKey, Html.nullable()).optional().describe('Merged by column key: sent keys replace, null removes, others stay.'),
  folder: z.string().max(200).nullable().optional(),
  tags: Tags.optional(),
});
export type UpdateSheetInput = z.infer<typeof UpdateSheetBody>;

export const DeleteSheetQuery = z.object({
  permanent: queryBool('permanent').optional().describe('true removes the sheet for good instead of moving it to the trash.'),
});

export const ListSheetsResponse = z.object({ success: z.literal(true), sheets: z.array(Sheet), total: z.number().int() });
export const SheetResponse = z.object({ success: z.literal(true), sheet: Sheet });
export const CreateSheetResponse = z.object({ success: z.literal(true), id: z.string(), title: z.string(), sheet: Sheet });
export const TrashSheetResponse = z.object({
  success: z.literal(true),
  id: z.string(),
  trashedAt: Timestamp.nullable(),
  deleted: z.boolean().describe('true when the sheet was removed for good (permanent=true).'),
});
