import { requestOrigin } from '../../http/origin.js';
import { responses } from '../../http/schemas.js';
import type { ZApp } from '../../http/types.js';
import type { WorkspacesService } from './workspaces.service.js';
import {
  CreateInvitationBody,
  CreateWorkspaceBody,
  DeleteWorkspaceBody,
  DeleteWorkspaceResponse,
  InvitationParams,
  InvitationResponse,
  ListInvitationsResponse,
  ListMembersResponse,
  ListWorkspacesResponse,
  MemberParams,
  MemberResponse,
  RemoveMemberResponse,
  RevokeInvitationResponse,
  UpdateMemberBody,
  UpdateWorkspaceBody,
  WorkspaceInvitationParams,
  WorkspaceParams,
  WorkspaceResponse,
} from './workspaces.schemas.js';

export function registerWorkspaceRoutes(app: ZApp, workspaces: WorkspacesService, publicUrl: string | undefined) {
  const tags = ['Workspaces'];
  const ok = true as const;

  app.get('/workspaces', {
    schema: { tags, operationId: 'listWorkspaces', summary: "The caller's workspaces (personal first) with the caller's role in each", response: responses(ListWorkspacesResponse) },
    handler: async (req) => ({ success: ok, workspaces: await workspaces.list(req.auth) }),
  });
  app.post('/workspaces', {
    schema: { tags, operationId: 'createWorkspace', summary: 'Make a team workspace (Pro plan or higher); the caller is its owner', body: CreateWorkspaceBody, response: responses(WorkspaceResponse, 403, 415) },
    handler: async (req) => ({ success: ok, workspace: await workspaces.create(req.auth, req.auth.plan, req.body) }),
  });
  app.get('/workspaces/:id', {
    schema: { tags, operationId: 'getWorkspace', summary: 'One workspace the caller is a member of', params: WorkspaceParams, response: responses(WorkspaceResponse, 403, 404) },
    handler: async (req) => ({ success: ok, workspace: await workspaces.get(req.auth, req.params.id) }),
  });
  app.put('/workspaces/:id', {
    schema: { tags, operationId: 'updateWorkspace', summary: 'Rename a workspace (admin or owner)', params: WorkspaceParams, body: UpdateWorkspaceBody, response: responses(WorkspaceResponse, 403, 404, 415) },
    handler: async (req) => ({ success: ok, workspace: await workspaces.rename(req.auth, req.params.id, req.body.name) }),
  });
  app.delete('/workspaces/:id', {
    schema: {
      tags,
      operationId: 'deleteWorkspace',
      summary: 'Delete a team workspace and its records (owner only; confirm with its name)',
      params: WorkspaceParams,
      body: DeleteWorkspaceBody,
      response: responses(DeleteWorkspaceResponse, 403, 404, 415),
    },
    handler: async (req) => ({ success: ok, ...(await workspaces.remove(req.auth, req.params.id, req.body.confirm)) }),
  });
  app.post('/workspaces/:id/invitations', {
    schema: {
      tags,
      operationId: 'createWorkspaceInvitation',
      summary: 'Invite someone (admin or owner): a single-use token, valid 7 days unless expires_in_hours says otherwise',
      params: WorkspaceParams,
      body: CreateInvitationBody,
      response: responses(InvitationResponse, 403, 404, 415),
    },
    handler: async (req) => ({ success: ok, invitation: await workspaces.invite(req.auth, req.params.id, req.body, requestOrigin(publicUrl, req)) }),
  });
  app.get('/workspaces/:id/invitations', {
    schema: {
      tags,
      operationId: 'listWorkspaceInvitations',
      summary: "A workspace's pending invitations (admin or owner): role, maker, expiry; never their tokens",
      params: WorkspaceParams,
      response: responses(ListInvitationsResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, invitations: await workspaces.invitations(req.auth, req.params.id) }),
  });
  app.delete('/workspaces/:id/invitations/:invitation_id', {
    schema: {
      tags,
      operationId: 'revokeWorkspaceInvitation',
      summary: 'Revoke a pending invitation (admin or owner): accepting its token is a 404 from then on',
      params: WorkspaceInvitationParams,
      response: responses(RevokeInvitationResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, ...(await workspaces.revokeInvitation(req.auth, req.params.id, req.params.invitation_id)) }),
  });
  app.post('/invitations/:token/accept', {
    schema: {
      tags,
      operationId: 'acceptWorkspaceInvitation',
      summary: "Join a workspace with an invitation token and the invitee's own key; unknown, expired and used tokens are 404",
      params: InvitationParams,
      response: responses(WorkspaceResponse, 404),
    },
    handler: async (req) => ({ success: ok, workspace: await workspaces.accept(req.auth, req.params.token) }),
  });
  app.get('/workspaces/:id/members', {
    schema: { tags, operationId: 'listWorkspaceMembers', summary: "A workspace's members and their roles", params: WorkspaceParams, response: responses(ListMembersResponse, 403, 404) },
    handler: async (req) => ({ success: ok, members: await workspaces.members(req.auth, req.params.id) }),
  });
  app.put('/workspaces/:id/members/:user_id', {
    schema: {
      tags,
      operationId: 'updateWorkspaceMember',
      summary: "Change a member's role (admin or owner; making or unmaking an owner: owners only; one owner always remains)",
      params: MemberParams,
      body: UpdateMemberBody,
      response: responses(MemberResponse, 403, 404, 409, 415),
    },
    handler: async (req) => ({ success: ok, member: await workspaces.setRole(req.auth, req.params.id, req.params.user_id, req.body.role) }),
  });
  app.delete('/workspaces/:id/members/:user_id', {
    schema: {
      tags,
      operationId: 'removeWorkspaceMember',
      summary: 'Remove a member (admin or owner) or leave (your own user_id); access ends with the next request',
      params: MemberParams,
      response: responses(RemoveMemberResponse, 403, 404, 409),
    },
    handler: async (req) => ({ success: ok, ...(await workspaces.removeMember(req.auth, req.params.id, req.params.user_id)) }),
  });
}
