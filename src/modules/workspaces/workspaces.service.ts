import type { Clock } from '../../clock.js';
import { transactionAlone } from '../../db/sqlite/group-commit.js';
import type { Db, WorkspaceRole } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { paidPlan, type Plan } from '../../lib/plans.js';
import { requireKeyReach, type Caller } from './workspaces.access.js';
import { workspaceRows } from './workspaces.personal.js';
import type { WorkspacesRepo } from './workspaces.repo.js';
import { REQUIRED_ROLE, requireRole, roleAtLeast, type WorkspaceAction } from './workspaces.roles.js';
import type { MemberView, PendingInvitationView, WorkspaceView } from './workspaces.schemas.js';
import { endWhatTheyMade, type MadeByMember } from './workspaces.departure.js';
import { hashSecretToken, newSecretToken } from '../../lib/secret-token.js';

const INVITATION_HOURS_DEFAULT = 7 * 24;
const notFound = (id: string) => new AppError('not_found', `workspace ${id} not found`);
// Unknown, expired, used, revoked, and made by someone who may no longer grant it: all the same 404.
const invitationGone = () => new AppError('not_found', 'invitation not found, expired, revoked or already used: ask for a new one');

export function createWorkspacesService(deps: { db: Db; repo: WorkspacesRepo; clock: Clock } & Omit<MadeByMember, 'repo'>) {
  const { db, repo, clock } = deps;
  const made: MadeByMember = { repo, shares: deps.shares, webhooks: deps.webhooks };

  async function existing(workspaceId: string) {
    const workspace = await repo.findById(workspaceId);
    if (!workspace) throw notFound(workspaceId);
    return workspace;
  }

  /** The workspace and the caller's role, when the caller may do `action` there: 404 unknown id, 403 otherwise. */
  async function authorize(caller: Caller, workspaceId: string, action: WorkspaceAction) {
    const workspace = await existing(workspaceId);
    requireKeyReach(caller, workspaceId);
    const { userId } = caller;
    const role = await repo.roleOf(workspaceId, userId);
    requireRole(role, action, workspaceId);
    return { workspace, role: role! };
  }

  const view = (w: { id: string; name: string; personal: number; created_at: string }, role: WorkspaceRole): WorkspaceView => ({
    id: w.id,
    name: w.name,
    role,
    personal: w.personal === 1,
    created_at: w.created_at,
  });
  const memberView = (m: { user_id: string; name: string; role: WorkspaceRole; created_at: string }): MemberView => ({
    user_id: m.user_id,
    name: m.name,
    role: m.role,
    joined_at: m.created_at,
  });

  /** Role changes and removals: under the member rows' lock, refuse what would leave the workspace without an owner. */
  function keepAnOwner(members: { user_id: string; role: WorkspaceRole }[], userId: string, nextRole: WorkspaceRole | undefined, workspaceId: string) {
    const owners = members.filter((m) => (m.user_id === userId ? nextRole : m.role) === 'owner');
    if (owners.length === 0) {
      throw new AppError('conflict', `workspace ${workspaceId} must keep at least one owner: make another member owner first`);
    }
  }

  return {
    authorize,

    async create(caller: Caller, plan: Plan, input: { name: string }): Promise<WorkspaceView> {
      if (caller.workspaceId) throw new AppError('forbidden', `this key is restricted to workspace ${caller.workspaceId}; use an unrestricted key to make a workspace`);
      const { userId } = caller;
      if (!paidPlan(plan)) {
        throw new AppError('plan_required', 'Team workspaces need the Pro plan or higher; this account is on the free plan. Upgrade to Pro to share a workspace.');
      }
      const at = clock.now();
      const id = newId('wsp', at.getTime());
      const iso = at.toISOString();
      const rows = workspaceRows(id, input.name, false, userId, iso);
      await transactionAlone(db, (trx) => repo.insert(rows.workspace, rows.owner, trx));
      return { id, name: input.name, role: 'owner', personal: false, created_at: iso };
    },

    /** The caller's workspaces (a restricted key sees only its own). */
    async list(caller: Caller): Promise<WorkspaceView[]> {
      const rows = await repo.listForUser(caller.userId);
      return rows.filter((r) => !caller.workspaceId || r.id === caller.workspaceId).map((r) => view(r, r.role));
    },

    async get(caller: Caller, id: string): Promise<WorkspaceView> {
      const { workspace, role } = await authorize(caller, id, 'workspace.read');
      return view(workspace, role);
    },

    async rename(caller: Caller, id: string, name: string): Promise<WorkspaceView> {
      const { workspace, role } = await authorize(caller, id, 'workspace.rename');
      await repo.rename(id, name, clock.now().toISOString());
      return view({ ...workspace, name }, role);
    },

    async remove(caller: Caller, id: string, confirm: string) {
      const { workspace } = await authorize(caller, id, 'workspace.delete');
      if (workspace.personal === 1) throw new AppError('invalid_request', `workspace ${id} is your personal workspace; only team workspaces can be deleted`);
      if (confirm !== workspace.name) {
        throw new AppError('invalid_request', `confirm must be the workspace's name exactly ("${workspace.name}"); nothing was deleted`);
      }
      await transactionAlone(db, async (trx) => {
        await repo.removeRecords(id, trx);
        await repo.remove(id, trx);
      });
      return { id, deleted: true as const };
    },

    async members(caller: Caller, id: string): Promise<MemberView[]> {
      await authorize(caller, id, 'members.read');
      return (await repo.members(id)).map(memberView);
    },

    async invite(caller: Caller, id: string, input: { role: 'admin' | 'editor' | 'viewer'; expires_in_hours?: number }, origin: string) {
      const { workspace, role } = await authorize(caller, id, 'invitations.manage');
      if (workspace.personal === 1) throw new AppError('invalid_request', `workspace ${id} is your personal workspace; make a team workspace (POST /v1/workspaces) to invite people`);
      if (!roleAtLeast(role, input.role)) throw new AppError('forbidden', `you cannot invite with a role above your own (${role})`, undefined, { required_role: input.role });
      const at = clock.now();
      const token = newSecretToken('inv');
      const expiresAt = new Date(at.getTime() + (input.expires_in_hours ?? INVITATION_HOURS_DEFAULT) * 3_600_000).toISOString();
      const invitationId = newId('inv', at.getTime());
      await repo.insertInvitation({
        id: invitationId,
        workspace_id: id,
        role: input.role,
        token_hash: hashSecretToken(token),
        created_by: caller.userId,
        created_at: at.toISOString(),
        expires_at: expiresAt,
        accepted_by: null,
        accepted_at: null,
      });
      return { id: invitationId, role: input.role, token, url: `${origin}/console/#/join/${token}`, expires_at: expiresAt };
    },

    /** The pending invitations (not accepted, not expired) of a workspace: admins and owners. */
    async invitations(caller: Caller, id: string): Promise<PendingInvitationView[]> {
      await authorize(caller, id, 'invitations.manage');
      const rows = await repo.pendingInvitations(id, clock.now().toISOString());
      return rows.map((r) => ({
        id: r.id,
        role: r.role,
        invited_by: { user_id: r.created_by, name: r.name ?? null },
        created_at: r.created_at,
        expires_at: r.expires_at,
      }));
    },

    /** Ends an invitation not yet accepted (admins and owners): accepting its token is a 404 from then on. */
    async revokeInvitation(caller: Caller, id: string, invitationId: string) {
      await authorize(caller, id, 'invitations.manage');
      if (!(await repo.removeInvitation(id, invitationId))) {
        throw new AppError('not_found', `invitation ${invitationId} of workspace ${id} not found or already accepted`);
      }
      return { id: invitationId, revoked: true as const };
    },

    /** Single use: unknown and expired tokens are 404 alike; a used one is 404 too, so a token says nothing once spent. */
    async accept(caller: Caller, token: string): Promise<WorkspaceView> {
      if (caller.workspaceId) throw new AppError('forbidden', `this key is restricted to workspace ${caller.workspaceId}; accept invitations with an unrestricted key or the console`);
      const { userId } = caller;
      const now = clock.now();
      return transactionAlone(db, async (trx) => {
        const inv = await repo.invitationByHashLocked(hashSecretToken(token), trx);
        if (!inv || inv.accepted_at !== null || inv.expires_at <= now.toISOString()) throw invitationGone();
        const workspace = await repo.findById(inv.workspace_id, trx);
        if (!workspace) throw invitationGone();
        // The maker must still be able to grant it: a member who may invite, with at least the role it grants.
        const makerRole = await repo.roleOf(inv.workspace_id, inv.created_by, trx);
        if (!makerRole || !roleAtLeast(makerRole, REQUIRED_ROLE['invitations.manage']) || !roleAtLeast(makerRole, inv.role)) throw invitationGone();
        if (await repo.roleOf(inv.workspace_id, userId, trx)) {
          throw new AppError('conflict', `you are already a member of workspace ${inv.workspace_id}; the invitation stays unused`);
        }
        await repo.addMember({ workspace_id: inv.workspace_id, user_id: userId, role: inv.role, created_at: now.toISOString() }, trx);
        await repo.markAccepted(inv.id, userId, now.toISOString(), trx);
        return view(workspace, inv.role);
      });
    },

    async setRole(caller: Caller, id: string, memberId: string, nextRole: WorkspaceRole): Promise<MemberView> {
      await existing(id);
      requireKeyReach(caller, id);
      const { userId } = caller;
      return transactionAlone(db, async (trx) => {
        // The caller's role again, under the members' lock: a concurrent change to it counts.
        const members = await repo.membersLocked(id, trx);
        const role = members.find((m) => m.user_id === userId)?.role;
        requireRole(role, 'members.manage', id);
        const target = members.find((m) => m.user_id === memberId);
        if (!target) throw new AppError('not_found', `user ${memberId} is not a member of workspace ${id}`);
        // Making or unmaking an owner is transferring ownership: owners only. Admins manage admins and below.
        if (nextRole === 'owner' || target.role === 'owner') requireRole(role, 'ownership.transfer', id);
        keepAnOwner(members, memberId, nextRole, id);
        await repo.setRole(id, memberId, nextRole, trx);
        await endWhatTheyMade(made, trx, id, memberId, { kind: 'demoted', role: nextRole }, clock.now().toISOString());
        const row = (await repo.members(id, trx)).find((m) => m.user_id === memberId)!;
        return memberView(row);
      });
    },

    /** Removing a member (admin+, owners only by an owner) or leaving (any member, oneself). */
    async removeMember(caller: Caller, id: string, memberId: string) {
      const workspace = await existing(id);
      requireKeyReach(caller, id);
      const { userId } = caller;
      if (workspace.personal === 1) throw new AppError('invalid_request', `workspace ${id} is a personal workspace; it has no other members to remove`);
      return transactionAlone(db, async (trx) => {
        const members = await repo.membersLocked(id, trx);
        const role = members.find((m) => m.user_id === userId)?.role;
        requireRole(role, memberId === userId ? 'workspace.read' : 'members.manage', id);
        const target = members.find((m) => m.user_id === memberId);
        if (!target) throw new AppError('not_found', `user ${memberId} is not a member of workspace ${id}`);
        if (target.role === 'owner' && memberId !== userId) requireRole(role, 'ownership.transfer', id);
        keepAnOwner(members, memberId, undefined, id);
        await repo.removeMember(id, memberId, trx);
        await endWhatTheyMade(made, trx, id, memberId, { kind: memberId === userId ? 'left' : 'removed' }, clock.now().toISOString());
        return { workspace_id: id, user_id: memberId, removed: true as const };
      });
    },
  };
}
export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
