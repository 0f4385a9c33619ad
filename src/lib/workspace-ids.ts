/** What a workspace id looks like (request validation, and the console's remembered choice). */
export const WORKSPACE_ID = /^wsp_[A-Za-z0-9_-]{1,96}$/;

/** Every account's personal workspace has this id (migration 027 backfilled existing accounts the same way). */
export const personalWorkspaceId = (userId: string) => `wsp_${userId.replace(/^usr_/, '')}`;

const TEAM_KEY = /^wsp_/;

/**
 * A record's `user_id` is its owner key: the account's id for a personal record, the workspace's id for a
 * team workspace's record (docs/teams.md). True for a team workspace's key.
 */
export const isTeamKey = (ownerKey: string) => TEAM_KEY.test(ownerKey);

/** The workspace a record (or event) is in, from its owner key. */
export const workspaceIdOf = (ownerKey: string) => (isTeamKey(ownerKey) ? ownerKey : personalWorkspaceId(ownerKey));
