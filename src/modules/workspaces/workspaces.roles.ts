import type { WorkspaceRole } from '../../db/types.js';
import { AppError } from '../../errors.js';

/** The roles of a workspace member, strongest first (docs/teams.md has the table). */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const satisfies readonly WorkspaceRole[];
export const INVITABLE_ROLES = ['admin', 'editor', 'viewer'] as const;

const RANK: Record<WorkspaceRole, number> = { viewer: 1, editor: 2, admin: 3, owner: 4 };

/**
 * What each action in a workspace needs: the one table every access rule of teams is read from.
 * Records (sheets, sessions, knowledge, todos, ...) are read by viewers and written by editors.
 */
export const REQUIRED_ROLE = {
  'workspace.read': 'viewer',
  'workspace.rename': 'admin',
  'workspace.delete': 'owner',
  'members.read': 'viewer',
  'members.manage': 'admin',
  'invitations.manage': 'admin',
  'ownership.transfer': 'owner',
  'records.read': 'viewer',
  'records.write': 'editor',
  'shares.manage': 'editor',
  'webhooks.manage': 'admin',
} as const satisfies Record<string, WorkspaceRole>;
export type WorkspaceAction = keyof typeof REQUIRED_ROLE;

export const roleAtLeast = (role: WorkspaceRole, needed: WorkspaceRole) => RANK[role] >= RANK[needed];

/**
 * Throws 403 `forbidden` with `required_role` unless `role` (the caller's, undefined when not a member)
 * allows `action`. A workspace the caller is not in is a 403 too: the spec's rule for another user's
 * resource (existing: 403, unknown: 404) is applied by the caller, which knows whether it exists.
 */
export function requireRole(role: WorkspaceRole | undefined, action: WorkspaceAction, workspaceId: string): void {
  const needed = REQUIRED_ROLE[action];
  if (role === undefined) {
    throw new AppError('forbidden', `workspace ${workspaceId} is not one of yours: ask one of its admins for an invitation`, undefined, { required_role: needed });
  }
  if (!roleAtLeast(role, needed)) {
    throw new AppError('forbidden', `this needs the ${needed} role in workspace ${workspaceId}; yours is ${role}`, undefined, { required_role: needed });
  }
}
