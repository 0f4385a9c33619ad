import { z } from 'zod';
import { IdParams, WorkspaceIdInput } from '../../lib/schema-fields.js';
import { personalWorkspaceId } from '../../lib/workspace-ids.js';
import { SheetInWorkspace as InWorkspace } from '../../modules/sheets/sheets.schemas.js';
import { CreateShareBody, ListSharesResponse, RevokeShareResponse, ShareResponse } from '../../modules/shares/shares.schemas.js';
import type { SharesService } from '../../modules/shares/shares.service.js';
import { ListInvitationsResponse, ListWorkspacesResponse, RevokeInvitationResponse } from '../../modules/workspaces/workspaces.schemas.js';
import type { WorkspacesService } from '../../modules/workspaces/workspaces.service.js';
import { READ_ONLY, type ToolRegistry } from '../tool.js';

/** The services these tools call. */
export interface WorkspaceToolDeps {
  workspaces: WorkspacesService;
  shares: SharesService;
}

const SheetId = IdParams.shape.id.describe('Sheet id, e.g. sht_01j...');
const InvitationsOf = WorkspaceIdInput.describe('The team workspace (wsp_...) whose invitations these are; default: the workspace your key is restricted to, else your personal one (which has none).');
/** The workspace a tool acts on: the one named, else the key's, else the caller's personal one (as REST's lists default). */
const workspaceOf = (named: string | undefined, auth: { userId: string; workspaceId?: string | null }) => named ?? auth.workspaceId ?? personalWorkspaceId(auth.userId);

/** Teams (issue 33): the caller's workspaces, and a sheet's read-only share links. `origin` starts the links' URLs. */
export function registerWorkspaceTools(t: ToolRegistry, deps: WorkspaceToolDeps, origin: string): void {
  t.define('list_workspaces', {
    title: 'List workspaces',
    description: 'The workspaces you belong to, your personal one first, each with your role in it (owner, admin, editor or viewer).',
    input: z.object({}),
    output: ListWorkspacesResponse,
    annotations: READ_ONLY,
    source: 'querystring',
    run: async (_args, auth) => ({ success: true as const, workspaces: await deps.workspaces.list(auth) }),
  });

  t.define('list_workspace_invitations', {
    title: "List a workspace's pending invitations",
    description: "A team workspace's invitations not yet accepted nor expired: id, role, invited_by (user_id, name), created_at, expires_at; never their tokens. " + 'Needs the admin or owner role there.',
    input: z.object({ workspace_id: InvitationsOf }),
    output: ListInvitationsResponse,
    annotations: READ_ONLY,
    source: 'querystring',
    run: async (args, auth) => ({ success: true as const, invitations: await deps.workspaces.invitations(auth, workspaceOf(args.workspace_id, auth)) }),
  });

  t.define('revoke_workspace_invitation', {
    title: 'Revoke a workspace invitation',
    description: 'End a pending invitation at once: accepting its token answers 404 from then on. Needs the admin or owner role there.',
    input: z.object({ invitation_id: IdParams.shape.id.describe('Invitation id, e.g. inv_01j...'), workspace_id: InvitationsOf }),
    output: RevokeInvitationResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, ...(await deps.workspaces.revokeInvitation(auth, workspaceOf(args.workspace_id, auth), args.invitation_id)) }),
  });

  t.define('share_sheet', {
    creates: true,
    title: 'Share a sheet by link',
    description: 'Make a read-only link to a sheet: anyone with its url reads the sheet (no key), until it expires (expires_in_hours, optional) or is revoked. ' + 'The token is shown only in this answer.',
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
    description: "End one of a sheet's links at once: its url answers 404 from the next request.",
    input: z.object({ sheet_id: SheetId, share_id: IdParams.shape.id.describe('Share id, e.g. shr_01j...'), workspace_id: InWorkspace }),
    output: RevokeShareResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, ...(await deps.shares.revoke(auth, args.sheet_id, args.share_id, { workspace_id: args.workspace_id })) }),
  });
}
