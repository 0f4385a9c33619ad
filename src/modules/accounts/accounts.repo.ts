import type { Executor, UsersTable } from '../../db/types.js';

import type { Plan } from '../../lib/plans.js';
export { PLANS, type Plan } from '../../lib/plans.js';

export function createAccountsRepo(db: Executor) {
  return {
    async insert(user: UsersTable, exec: Executor = db) {
      await exec.insertInto('users').values(user).execute();
    },
    findById(id: string) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    list() {
      return db.selectFrom('users').selectAll().orderBy('id').execute();
    },
    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async setPlan(id: string, plan: Plan): Promise<boolean> {
      const r = await db.updateTable('users').set({ plan }).where('id', '=', id).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}
export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
