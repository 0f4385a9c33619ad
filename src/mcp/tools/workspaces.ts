import { z } from 'zod';
import { IdParams } from '../../lib/schema-fields.js';
import { SheetInWorkspace as InWorkspace } from '../../modules/sheets/sheets.schemas.js';
import { CreateShareBody, ListSharesResponse, RevokeShareResponse, ShareResponse } from '../../modules/shares/shares.schemas.js';
import type { SharesService } from '../../modules/shares/shares.service.js';
import { ListWorkspacesResponse } from '../../modules/workspaces/workspaces.schemas.js';
import type { WorkspacesService } from '../../modules/workspaces/workspaces.service.js';
import { READ_ONLY, type ToolRegistry } from '../tool.js';

/** The services these tools call. */
export interface WorkspaceToolDeps {
  workspaces: WorkspacesService;
  shares: SharesService;
}

const SheetId = IdParams.shape.id.describe('Sheet id, e.g. sht_01j...');

/** Teams (issue 33): the caller's workspaces, and a sheet's read-only share links. `origin` starts the links' URLs. */
export function registerWorkspaceTools(t: ToolRegistry, deps: WorkspaceToolDeps, origin: string): void {
  t.define('list_workspaces', {
    title: 'List workspaces',
    description: "The workspaces you belong to, your personal one first, each with your role in it (owner, admin, editor or viewer).",
    input: z.object({}),
    output: ListWorkspacesResponse,
    annotations: READ_ONLY,
    source: 'querystring',
    run: async (_args, auth) => ({ success: true as const, workspaces: await deps.workspaces.list(auth) }),
  });

  t.define('share_sheet', {
    creates: true,
    title: 'Share a sheet by link',
    description:
      'Make a read-only link to a sheet: anyone with its url reads the sheet (no key), until it expires (expires_in_hours, optional) or is revoked. ' +
      'The token is shown only in this answer.',
    input: CreateShareBody.extend({ sheet_id: SheetId, workspace_id: InWorkspace }),
    output: ShareResponse,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async ({ sheet_id, workspace_id, ...body }, auth) => ({ success: true as const, share: await deps.shares.create(auth, sheet_id, body, origin, { workspace_id }) }),
  });

  t.define('list_sheet_shares', {
    title: "List a sheet's share links",
    description: "A sheet's links (id, created_at, expires_at; never their tokens).",
    input: z.object({ sheet_id: SheetId, workspace_id: InWorkspace }),
    output: ListSharesResponse,
    annotations: READ_ONLY,
    source: 'querystring',
    run: async (args, auth) => ({ success: true as const, shares: await deps.shares.list(auth, args.sheet_id, { workspace_id: args.workspace_id }) }),
  });

  t.define('revoke_sheet_share', {
    title: 'Revoke a share link',
    description: 'End one of a sheet\'s links at once: its url answers 404 from the next request.',
    input: z.object({ sheet_id: SheetId, share_id: IdParams.shape.id.describe('Share id, e.g. shr_01j...'), workspace_id: InWorkspace }),
    output: RevokeShareResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, ...(await deps.shares.revoke(auth, args.sheet_id, args.share_id, { workspace_id: args.workspace_id })) }),
  });
}
