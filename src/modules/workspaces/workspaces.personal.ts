/** Every account's personal workspace has this id (migration 027 backfilled existing accounts the same way). */
export const personalWorkspaceId = (userId: string) => `wsp_${userId.replace(/^usr_/, '')}`;

/** The rows of an account's personal workspace, written in the account's own creating transaction. */
export function personalWorkspaceRows(userId: string, at: string) {
  const id = personalWorkspaceId(userId);
  return {
    workspace: { id, name: 'Personal', personal: 1, created_by: userId, created_at: at, updated_at: at },
    owner: { workspace_id: id, user_id: userId, role: 'owner' as const, created_at: at },
  };
}
