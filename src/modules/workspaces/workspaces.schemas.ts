import { z } from 'zod';
import { Timestamp } from '../../lib/schema-fields.js';
import { ROLES, INVITABLE_ROLES } from './workspaces.roles.js';

const Name = z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters');
const Role = z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });

export const Workspace = z
  .object({
    id: z.string().describe('wsp_...'),
    name: z.string(),
    role: Role.describe("The caller's role in this workspace."),
    personal: z.boolean().describe("True for the caller's personal workspace (records made without workspace_id go there)."),
    created_at: Timestamp,
  })
  .meta({ id: 'Workspace' });
export type WorkspaceView = z.infer<typeof Workspace>;

export const Member = z.object({ user_id: z.string(), name: z.string(), role: Role, joined_at: Timestamp }).meta({ id: 'WorkspaceMember' });
export type MemberView = z.infer<typeof Member>;

export const Invitation = z
  .object({
    id: z.string().describe('inv_...'),
    role: z.enum(INVITABLE_ROLES),
    token: z.string().describe('Shown only here; the invitee accepts with POST /v1/invitations/{token}/accept and their own key.'),
    url: z.string().describe('The console page that accepts it (the invitee signs in with their own key, then clicks Accept).'),
    expires_at: Timestamp,
  })
  .meta({ id: 'WorkspaceInvitation' });

export const PendingInvitation = z
  .object({
    id: z.string().describe('inv_...'),
    role: z.enum(INVITABLE_ROLES),
    invited_by: z.object({ user_id: z.string(), name: z.string().nullable() }).describe('The member who made it; it dies when they leave, are removed or may no longer grant its role.'),
    created_at: Timestamp,
    expires_at: Timestamp,
  })
  .meta({ id: 'PendingWorkspaceInvitation' });
export type PendingInvitationView = z.infer<typeof PendingInvitation>;

export const CreateWorkspaceBody = z.object({ name: Name });
export const UpdateWorkspaceBody = z.object({ name: Name });
export const DeleteWorkspaceBody = z.object({
  confirm: z.string().max(100).describe("The workspace's name, exactly: deleting removes the workspace and its records."),
});
export const CreateInvitationBody = z.object({
  role: z.enum(INVITABLE_ROLES, { error: `role must be one of ${INVITABLE_ROLES.join(', ')} (ownership is transferred, not invited)` }),
  expires_in_hours: z.number().int().min(1).max(720).optional().describe('Default 168 (7 days); at most 720.'),
});
export const UpdateMemberBody = z.object({ role: Role });

export const WorkspaceParams = z.object({ id: z.string().min(1).max(100) });
export const MemberParams = z.object({ id: z.string().min(1).max(100), user_id: z.string().min(1).max(100) });
export const InvitationParams = z.object({ token: z.string().min(1).max(200) });
export const WorkspaceInvitationParams = z.object({ id: z.string().min(1).max(100), invitation_id: z.string().min(1).max(100) });

const ok = z.literal(true);
export const WorkspaceResponse = z.object({ success: ok, workspace: Workspace });
export const ListWorkspacesResponse = z.object({ success: ok, workspaces: z.array(Workspace) });
export const DeleteWorkspaceResponse = z.object({ success: ok, id: z.string(), deleted: z.literal(true) });
export const InvitationResponse = z.object({ success: ok, invitation: Invitation });
export const ListInvitationsResponse = z.object({ success: ok, invitations: z.array(PendingInvitation) });
export const RevokeInvitationResponse = z.object({ success: ok, id: z.string(), revoked: z.literal(true) });
export const ListMembersResponse = z.object({ success: ok, members: z.array(Member) });
export const MemberResponse = z.object({ success: ok, member: Member });
export const RemoveMemberResponse = z.object({ success: ok, workspace_id: z.string(), user_id: z.string(), removed: z.literal(true) });
