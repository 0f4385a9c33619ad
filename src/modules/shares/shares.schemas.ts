import { z } from 'zod';
import { Timestamp } from '../../lib/schema-fields.js';

export const Share = z
  .object({
    id: z.string().describe('shr_...'),
    url: z.string().describe('The read-only page: GET /s/{token}, no key needed.'),
    token: z.string().describe('Shown only here; stored hashed. GET /v1/shared/{token} gives the sheet as JSON.'),
    expires_at: Timestamp.nullable().describe('null: the link works until it is revoked.'),
  })
  .meta({ id: 'Share' });

export const ShareListItem = z.object({ id: z.string(), created_by: z.string(), created_at: Timestamp, expires_at: Timestamp.nullable() }).meta({ id: 'ShareListItem' });

export const SharedSheet = z
  .object({
    title: z.string(),
    content: z.record(z.string(), z.string()).describe('Columns (col1, col2, ...) as sanitized HTML.'),
    folder: z.string().nullable(),
    tags: z.array(z.string()),
    updatedAt: Timestamp,
    version: z.number().int(),
  })
  .meta({ id: 'SharedSheet' });
export type SharedSheetView = z.infer<typeof SharedSheet>;

export const CreateShareBody = z.object({
  expires_in_hours: z.number().int().min(1).max(8760).optional().describe('Omitted: until revoked. At most 8760 (a year).'),
});
export const ShareParams = z.object({ id: z.string().min(1).max(100), share_id: z.string().min(1).max(100) });
export const ShareTokenParams = z.object({ token: z.string().min(1).max(200) });

const ok = z.literal(true);
export const ShareResponse = z.object({ success: ok, share: Share });
export const ListSharesResponse = z.object({ success: ok, shares: z.array(ShareListItem) });
export const RevokeShareResponse = z.object({ success: ok, id: z.string(), revoked: z.literal(true) });
export const SharedSheetResponse = z.object({ success: ok, sheet: SharedSheet });
