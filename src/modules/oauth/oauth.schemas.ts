import { z } from 'zod';
import { Timestamp } from '../../lib/schema-fields.js';

export const ConnectedApp = z
  .object({
    id: z.string(),
    client_id: z.string().describe('The registered client id, or the URL of its client ID metadata document.'),
    client_name: z.string(),
    scopes: z.array(z.string()).describe('What the person approved for this app.'),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable().describe('Updated at most once a minute.'),
    workspace_id: z.string().nullable().describe('The one workspace (wsp_...) the app reaches, picked on the consent page; null: every workspace (apps connected before workspaces).'),
  })
  .meta({ id: 'ConnectedApp' });

export const ListConnectedAppsResponse = z.object({ success: z.literal(true), connected_apps: z.array(ConnectedApp) });
export const RevokeConnectedAppResponse = z.object({ success: z.literal(true), id: z.string(), status: z.literal('revoked') });
