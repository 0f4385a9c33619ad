/** What a workspace id looks like (request validation, and the console's remembered choice). */
export const WORKSPACE_ID = /^wsp_[A-Za-z0-9_-]{1,96}$/;

/** Every account's personal workspace has this id (migration 027 backfilled existing accounts the same way). */
export const personalWorkspaceId = (userId: string) => `wsp_${userId.replace(/^usr_/, '')}`;
