import { personalWorkspaceId } from '../../lib/workspace-ids.js';

/** A new workspace's row and its maker's membership as owner. */
export function workspaceRows(id: string, name: string, personal: boolean, userId: string, at: string) {
  return {
    workspace: { id, name, personal: personal ? 1 : 0, created_by: userId, created_at: at, updated_at: at },
    owner: { workspace_id: id, user_id: userId, role: 'owner' as const, created_at: at },
  };
}

/** The rows of an account's personal workspace, written in the account's own creating transaction. */
export const personalWorkspaceRows = (userId: string, at: string) => workspaceRows(personalWorkspaceId(userId), 'Personal', true, userId, at);
