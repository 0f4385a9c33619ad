import { z } from 'zod';
import { Timestamp } from '../../http/schemas.js';

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first 12 characters of the key.'),
    status: z.enum(['active', 'disabled']),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable().describe('Updated at most once a minute.'),
  })
  .meta({ id: 'ApiKey' });

export const CreateApiKeyBody = z.object({ name: z.string().trim().min(1, 'name must not be empty').max(100) });

export const ListApiKeysResponse = z.object({ success: z.literal(true), api_keys: z.array(ApiKey) });
export const CreateApiKeyResponse = z.object({
  success: z.literal(true),
  api_key: z.string().describe('The full key. Shown only in this response; store it now.'),
  id: z.string(),
  name: z.string(),
});
export const DisableApiKeyResponse = z.object({ success: z.literal(true), id: z.string(), status: z.literal('disabled') });
