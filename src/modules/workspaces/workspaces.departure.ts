import type { Executor, WorkspaceRole } from '../../db/types.js';
import type { SharesRepo } from '../shares/shares.repo.js';
import type { WebhooksRepo } from '../webhooks/webhooks.repo.js';
import type { WorkspacesRepo } from './workspaces.repo.js';
import { INVITABLE_ROLES, REQUIRED_ROLE, roleAtLeast } from './workspaces.roles.js';

/** What a member made that outlives a request: the repos that end it. */
export interface MadeByMember {
  repo: Pick<WorkspacesRepo, 'removeInvitationsMadeBy'>;
  shares: Pick<SharesRepo, 'removeMadeBy'>;
  webhooks: Pick<WebhooksRepo, 'disableMadeBy'>;
}

/** Why a member's standing dropped: leaving, being removed, or a lower role. */
export type Departure = { kind: 'left' } | { kind: 'removed' } | { kind: 'demoted'; role: WorkspaceRole };

const allows = (role: WorkspaceRole | undefined, needed: WorkspaceRole) => role !== undefined && roleAtLeast(role, needed);

/**
 * A member's standing in a team workspace dropped: in the same transaction, what they made and may no
 * longer make ends. Invitations die when the maker may no longer invite (admin) or no longer holds the
 * role one grants; share links of the workspace's sheets go for good below editor; webhooks of the
 * workspace are disabled below admin (an admin or owner can enable them again). docs/teams.md has the table.
 */
export async function endWhatTheyMade(deps: MadeByMember, trx: Executor, workspaceId: string, userId: string, why: Departure, at: string) {
  const next = why.kind === 'demoted' ? why.role : undefined;
  const invitations = allows(next, REQUIRED_ROLE['invitations.manage'])
    ? await deps.repo.removeInvitationsMadeBy(
        workspaceId,
        userId,
        INVITABLE_ROLES.filter((r) => !roleAtLeast(next!, r)),
        trx,
      )
    : await deps.repo.removeInvitationsMadeBy(workspaceId, userId, 'all', trx);
  const shares = allows(next, REQUIRED_ROLE['shares.manage']) ? 0 : await deps.shares.removeMadeBy(workspaceId, userId, trx);
  const reason =
    why.kind === 'demoted'
      ? `its maker ${userId} now has the ${why.role} role in workspace ${workspaceId} (webhooks need admin); an admin or owner can enable it again`
      : `its maker ${userId} ${why.kind === 'left' ? 'left' : 'was removed from'} workspace ${workspaceId}; an admin or owner can enable it again`;
  const webhooks = allows(next, REQUIRED_ROLE['webhooks.manage']) ? 0 : await deps.webhooks.disableMadeBy(workspaceId, userId, reason, at, trx);
  return { invitations, shares, webhooks };
}
