import type { Clock } from '../../clock.js';
import { transactionAlone } from '../../db/sqlite/group-commit.js';
import type { Db } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { WorkspacesRepo } from '../workspaces/workspaces.repo.js';
import { personalWorkspaceRows } from '../workspaces/workspaces.personal.js';
import { PLANS, type AccountsRepo, type Plan } from './accounts.repo.js';

export function createAccountsService(deps: { db: Db; repo: AccountsRepo; workspaces: WorkspacesRepo; apiKeys: ApiKeysService; clock: Clock }) {
  const { db, repo, workspaces, apiKeys, clock } = deps;

  function checkPlan(plan: string): Plan {
    if (!PLANS.includes(plan as Plan)) throw new AppError('invalid_request', `plan must be one of ${PLANS.join(', ')}`);
    return plan as Plan;
  }

  return {
    /** Makes an account and its first API key together. */
    async create(input: { name: string; plan: string }) {
      const plan = checkPlan(input.plan);
      const name = input.name.trim();
      if (!name) throw new AppError('invalid_request', 'name must not be empty');
      const now = clock.now();
      const userId = newId('usr', now.getTime());
      return transactionAlone(db, async (trx) => {
        await repo.insert({ id: userId, name, plan, created_at: now.toISOString() }, trx);
        const personal = personalWorkspaceRows(userId, now.toISOString());
        await workspaces.insert(personal.workspace, personal.owner, trx);
        const key = await apiKeys.create(userId, 'default', trx);
        return { user_id: userId, name, plan, api_key: key.api_key };
      });
    },
    list: () => repo.list(),
    get: (id: string) => repo.findById(id),
    async setPlan(userId: string, plan: string) {
      const checked = checkPlan(plan);
      if (!(await repo.setPlan(userId, checked))) throw new AppError('not_found', `user ${userId} not found`);
      return { user_id: userId, plan: checked };
    },
    /** A new full-access key for an existing account: the way back from a lost key (CLI `users key`). */
    async newKey(userId: string, keyName: string) {
      const name = keyName.trim();
      if (!name) throw new AppError('invalid_request', 'name must not be empty');
      if (!(await repo.findById(userId))) throw new AppError('not_found', `user ${userId} not found`);
      const key = await apiKeys.create(userId, name);
      return { user_id: userId, name, api_key: key.api_key };
    },
    /** On first start with an empty database: one business-plan owner (decisions.md). */
    async bootstrapOwner() {
      if ((await repo.count()) > 0) return null;
      return this.create({ name: 'owner', plan: 'business' });
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
