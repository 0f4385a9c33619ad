import type { AuthContext } from '../../auth/context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { personalWorkspaceId } from '../../lib/workspace-ids.js';
import type { WorkspacesRepo } from './workspaces.repo.js';
import { requireRole } from './workspaces.roles.js';

/** What a request does with records (sheets, sessions, knowledge, todos, ...): REQUIRED_ROLE says who may. */
export type RecordAction = 'records.read' | 'records.write' | 'webhooks.manage' | 'shares.manage';

/** Who asks: the account and, for a key restricted to one workspace, that workspace (src/auth/context.ts). */
export type Caller = Pick<AuthContext, 'userId' | 'workspaceId'>;

/** By-id options: the workspace the record is expected in (MCP tools take it); a record elsewhere is a 403. */
export interface InWorkspace {
  workspace_id?: string;
}

/** A key restricted to one workspace reaches nothing outside it (records, and the workspace routes too). */
export function requireKeyReach(caller: Caller, workspaceId: string) {
  if (caller.workspaceId && caller.workspaceId !== workspaceId) {
    throw new AppError('forbidden', `this key is restricted to workspace ${caller.workspaceId}; it cannot reach workspace ${workspaceId}`);
  }
}

/**
 * What acts on the whole account rather than on records of one workspace (the account's export, which
 * holds every personal record) needs a credential that is not restricted to a workspace: a restricted
 * key, or a console session or OAuth grant opened with one, reaches nothing outside its workspace, even
 * when that workspace was deleted since. Every other account-level route already answers within the
 * restriction (stats, briefing, events: workspaceFor; keys and connected apps: credentialVisible).
 */
export function requireUnrestricted(caller: Caller, what: string) {
  if (caller.workspaceId) {
    throw new AppError('forbidden', `this credential is restricted to workspace ${caller.workspaceId}; ${what} needs a key or console session that is not restricted to a workspace`);
  }
}

/**
 * The account's credentials (API keys, connected apps) a caller sees: all of them, or for a credential
 * restricted to a workspace only those restricted to the same one.
 */
export const credentialVisible = (caller: Caller, credential: { workspace_id: string | null }) => !caller.workspaceId || credential.workspace_id === caller.workspaceId;

/** 403 for a credential (`what` `id`) the caller may not see (credentialVisible). */
export function requireCredentialVisible(caller: Caller, credential: { workspace_id: string | null }, what: string, id: string) {
  if (!credentialVisible(caller, credential)) {
    throw new AppError('forbidden', `this credential is restricted to workspace ${caller.workspaceId}; ${what} ${id} is not restricted to it`);
  }
}

/**
 * A by-id call that names a workspace (MCP tools take `workspace_id`) must name the record's: a record
 * never moves between workspaces, so one elsewhere is a 403 whatever the caller's role there.
 */
export function requireInWorkspace(what: string, id: string, actualWorkspaceId: string, wanted: string | undefined, why = '') {
  if (wanted !== undefined && wanted !== actualWorkspaceId) {
    throw new AppError('forbidden', `${what} ${id} is in workspace ${actualWorkspaceId}, not in workspace ${wanted}${why}`);
  }
}

/**
 * Every access rule for records in workspaces is decided here; services ask it before they list, create,
 * read or change a record. The caller's role is read on every request (never cached), so a removed member
 * is out on the next request on every process. Personal records keep the one-comparison fast path.
 */
export function createWorkspaceAccess(repo: Pick<WorkspacesRepo, 'roleOf' | 'findById'>) {
  const { roleOf } = repo;

  return {
    /**
     * The workspace records of `workspaceId` are listed and created in (default: the key's own
     * workspace, else the caller's personal one). 404 for a workspace that does not exist, 403 for one
     * the caller is not in or whose role is too low.
     */
    async workspaceFor(caller: Caller, workspaceId: string | undefined, action: RecordAction): Promise<string> {
      const personal = personalWorkspaceId(caller.userId);
      const wanted = workspaceId ?? caller.workspaceId ?? personal;
      requireKeyReach(caller, wanted);
      if (wanted === personal) return wanted;
      const role = await roleOf(wanted, caller.userId);
      if (role === undefined && !(await repo.findById(wanted))) throw notFound('workspace', wanted);
      requireRole(role, action, wanted);
      return wanted;
    },

    /**
     * The record when the caller may do `action` with it: 404 when there is none, 403 (with
     * `required_role` for a team record) when it is in a workspace the caller is not in, or the role is too low.
     * `expected`, when given, must be the record's workspace (requireInWorkspace).
     */
    async ownedRow<R extends { workspace_id: string }>(row: R | undefined, caller: Caller, what: string, id: string, action: RecordAction, expected?: string): Promise<R> {
      if (!row) throw notFound(what, id);
      const workspaceId = row.workspace_id;
      if (workspaceId === personalWorkspaceId(caller.userId)) {
        requireKeyReach(caller, workspaceId);
      } else {
        const role = await roleOf(workspaceId, caller.userId);
        // Another account's personal workspace: the plain 403 of someone else's record, no role to ask for.
        if (role === undefined && (await repo.findById(workspaceId))?.personal) throw forbidden(what, id);
        requireKeyReach(caller, workspaceId);
        requireRole(role, action, workspaceId);
      }
      requireInWorkspace(what, id, workspaceId, expected);
      return row;
    },
  };
}
export type WorkspaceAccess = ReturnType<typeof createWorkspaceAccess>;
