import type { ZApp } from '../../http/types.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import { ListConnectedAppsResponse, RevokeConnectedAppResponse } from './oauth.schemas.js';
import type { OAuthService } from './oauth.service.js';

/** Apps connected through OAuth (one grant each), inside /v1: listing and revoking need keys:manage. */
export function registerConnectedAppRoutes(app: ZApp, oauth: OAuthService) {
  const tags = ['Connected apps'];
  app.get('/connected-apps', {
    schema: { tags, operationId: 'listConnectedApps', summary: 'Apps you connected with OAuth (claude.ai, ChatGPT, ...)', response: responses(ListConnectedAppsResponse, 403) },
    handler: async (req) => ({ success: true as const, connected_apps: await oauth.listGrants(req.auth) }),
  });
  app.delete('/connected-apps/:id', {
    schema: {
      tags,
      operationId: 'revokeConnectedApp',
      summary: 'Revoke an app: its access and refresh tokens stop working at once',
      params: IdParams,
      response: responses(RevokeConnectedAppResponse, 403, 404),
    },
    handler: async (req) => ({ success: true as const, ...(await oauth.revokeGrant(req.auth, req.params.id)) }),
  });
}
