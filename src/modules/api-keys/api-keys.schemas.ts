import { z } from 'zod';
import { Timestamp, WorkspaceIdInput } from '../../lib/schema-fields.js';
import { FULL_ACCESS, SCOPES } from '../../auth/scopes.js';

export const ScopeName = z.enum([FULL_ACCESS, ...SCOPES]);

const KeyWorkspace = z.string().nullable().describe('The one workspace (wsp_...) the key reaches; null: every workspace of the account.');

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first 12 characters of the key.'),
    status: z.enum(['active', 'disabled']),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable().describe('Updated at most once a minute.'),
    scopes: z.array(z.string()).describe('What the key may do; ["*"] is full access.'),
    expires_at: Timestamp.nullable().describe('After this instant the key answers 401; null: never.'),
    workspace_id: KeyWorkspace,
  })
  .meta({ id: 'ApiKey' });

export const CreateApiKeyBody = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(100),
  scopes: z.array(ScopeName).min(1, 'scopes must not be empty').max(20).optional().describe('Default ["*"] (full access). A key never gets a scope the issuing credential lacks (403 insufficient_scope).'),
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO 8601 timestamp' })
    .nullable()
    .optional()
    .describe(
      'When the key stops working (must be in the future); absent or null: never. A credential that itself expires (an expiring key, an OAuth access token) cannot create a key that outlives it: absent means its own expiry, and a later time or null is a 400.',
    ),
  workspace_id: WorkspaceIdInput.unwrap()
    .nullable()
    .optional()
    .describe(
      'Restrict the key to one workspace (wsp_...) you are a member of: it sees and writes only there (lists default to it, other workspaces answer 403), and its scopes and your role still apply. Absent: the workspace the creating credential is restricted to, else every workspace (null). A restricted credential cannot make a key for another workspace or for every workspace (403).',
    ),
});

export const ListApiKeysResponse = z.object({ success: z.literal(true), api_keys: z.array(ApiKey) });
export const CreateApiKeyResponse = z.object({
  success: z.literal(true),
  api_key: z.string().describe('The full key. Shown only in this response; store it now.'),
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  expires_at: Timestamp.nullable(),
  workspace_id: KeyWorkspace,
});
export const DisableApiKeyResponse = z.object({ success: z.literal(true), id: z.string(), status: z.literal('disabled') });
