import { lockedForUpdate } from '../../db/dialect.js';
import type { Db, Executor, WorkspaceInvitationsTable, WorkspaceMembersTable, WorkspaceRole, WorkspacesTable } from '../../db/types.js';

/** The tables whose rows belong to a workspace (its records, events and counts), children before parents. */
const WORKSPACE_TABLES = [
  'deliveries',
  'webhooks',
  'exports',
  'sheets',
  'sheet_counts',
  'sessions',
  'handovers',
  'session_distills',
  'knowledge_suggestions',
  'knowledge',
  'todos',
  'work_logs',
  'spark_runs',
  'user_sparks',
  'outbox',
] as const;

export function createWorkspacesRepo(db: Db) {
  return {
    async insert(workspace: WorkspacesTable, owner: WorkspaceMembersTable, exec: Executor = db) {
      await exec.insertInto('workspaces').values(workspace).execute();
      await exec.insertInto('workspace_members').values(owner).execute();
    },
    findById(id: string, exec: Executor = db) {
      return exec.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The caller's role, read on every request (never cached), so a removed member is out at once on every process. */
    async roleOf(workspaceId: string, userId: string, exec: Executor = db): Promise<WorkspaceRole | undefined> {
      const row = await exec.selectFrom('workspace_members').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
      return row?.role;
    },
    listForUser(userId: string) {
      return db
        .selectFrom('workspace_members as m')
        .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
        .select(['w.id', 'w.name', 'w.personal', 'w.created_at', 'm.role'])
        .where('m.user_id', '=', userId)
        .orderBy('w.personal', 'desc')
        .orderBy('w.id')
        .execute();
    },
    async rename(id: string, name: string, at: string) {
      await db.updateTable('workspaces').set({ name, updated_at: at }).where('id', '=', id).execute();
    },
    /**
     * A deleted team workspace's records go with it, in the deleting transaction: what hangs off a
     * sheet or a delivery first, then every table keyed by the workspace.
     */
    async removeRecords(workspaceId: string, exec: Executor) {
      const sheetIds = exec.selectFrom('sheets').select('id').where('workspace_id', '=', workspaceId);
      await exec.deleteFrom('sheet_revisions').where('sheet_id', 'in', sheetIds).execute();
      await exec.deleteFrom('sheet_shares').where('sheet_id', 'in', sheetIds).execute();
      const deliveryIds = exec.selectFrom('deliveries').select('id').where('workspace_id', '=', workspaceId);
      await exec.deleteFrom('delivery_attempts').where('delivery_id', 'in', deliveryIds).execute();
      for (const table of WORKSPACE_TABLES) await exec.deleteFrom(table).where('workspace_id', '=', workspaceId).execute();
    },
    async remove(id: string, exec: Executor) {
      await exec.deleteFrom('workspace_invitations').where('workspace_id', '=', id).execute();
      await exec.deleteFrom('workspace_members').where('workspace_id', '=', id).execute();
      await exec.deleteFrom('workspaces').where('id', '=', id).execute();
    },
    members(workspaceId: string, exec: Executor = db) {
      return exec
        .selectFrom('workspace_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.user_id', 'u.name', 'm.role', 'm.created_at'])
        .where('m.workspace_id', '=', workspaceId)
        .orderBy('m.created_at')
        .orderBy('m.user_id')
        .execute();
    },
    /** Every member row of the workspace, locked: role changes and removals check "one owner remains" under it. */
    membersLocked(workspaceId: string, exec: Executor) {
      return lockedForUpdate(exec, exec.selectFrom('workspace_members').selectAll().where('workspace_id', '=', workspaceId).orderBy('user_id')).execute();
    },
    async addMember(member: WorkspaceMembersTable, exec: Executor) {
      await exec.insertInto('workspace_members').values(member).execute();
    },
    async setRole(workspaceId: string, userId: string, role: WorkspaceRole, exec: Executor) {
      await exec.updateTable('workspace_members').set({ role }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
    },
    async removeMember(workspaceId: string, userId: string, exec: Executor) {
      await exec.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
    },
    async insertInvitation(row: WorkspaceInvitationsTable) {
      await db.insertInto('workspace_invitations').values(row).execute();
    },
    invitationByHashLocked(tokenHash: string, exec: Executor) {
      return lockedForUpdate(exec, exec.selectFrom('workspace_invitations').selectAll().where('token_hash', '=', tokenHash)).executeTakeFirst();
    },
    /** Invitations not yet accepted nor expired, oldest first, with their maker's name (never the token's hash). */
    pendingInvitations(workspaceId: string, now: string) {
      return db
        .selectFrom('workspace_invitations as i')
        .leftJoin('users as u', 'u.id', 'i.created_by')
        .select(['i.id', 'i.role', 'i.created_by', 'u.name', 'i.created_at', 'i.expires_at'])
        .where('i.workspace_id', '=', workspaceId)
        .where('i.accepted_at', 'is', null)
        .where('i.expires_at', '>', now)
        .orderBy('i.created_at')
        .orderBy('i.id')
        .execute();
    },
    /** Deletes a not yet accepted invitation of the workspace: true when there was one. */
    async removeInvitation(workspaceId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('workspace_invitations').where('workspace_id', '=', workspaceId).where('id', '=', id).where('accepted_at', 'is', null).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    /** Deletes the not yet accepted invitations `userId` made in the workspace, all or only those granting one of `roles`. */
    async removeInvitationsMadeBy(workspaceId: string, userId: string, roles: readonly WorkspaceInvitationsTable['role'][] | 'all', exec: Executor): Promise<number> {
      let q = exec.deleteFrom('workspace_invitations').where('workspace_id', '=', workspaceId).where('created_by', '=', userId).where('accepted_at', 'is', null);
      if (roles !== 'all') {
        if (roles.length === 0) return 0;
        q = q.where('role', 'in', [...roles]);
      }
      return Number((await q.executeTakeFirst()).numDeletedRows);
    },
    async markAccepted(id: string, userId: string, at: string, exec: Executor) {
      await exec.updateTable('workspace_invitations').set({ accepted_by: userId, accepted_at: at }).where('id', '=', id).execute();
    },
  };
}
export type WorkspacesRepo = ReturnType<typeof createWorkspacesRepo>;
