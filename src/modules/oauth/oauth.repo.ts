import type { Executor, OAuthClientsTable, OAuthCodesTable, OAuthGrantsTable, OAuthTokensTable } from '../../db/types.js';

/** The state of the API key that approved a code or grant (left-joined as api_keys; null columns when there is none). */
const APPROVER_COLUMNS = ['api_keys.id as key_id', 'api_keys.status as key_status', 'api_keys.expires_at as key_expires_at'] as const;

export function createOAuthRepo(db: Executor) {
  return {
    findClient(id: string) {
      return db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async insertClient(row: OAuthClientsTable) {
      await db.insertInto('oauth_clients').values(row).execute();
    },
    /** A metadata document client, fetched again: its cached copy is replaced. */
    async upsertMetadataClient(row: OAuthClientsTable) {
      // One statement, so two concurrent fetches of the same document cannot collide on the key.
      // created_at and last_used_at of an existing row are kept.
      const { client_name, redirect_uris, fetched_at } = row;
      await db
        .insertInto('oauth_clients')
        .values(row)
        .onConflict((oc) => oc.column('id').doUpdateSet({ client_name, redirect_uris, fetched_at }))
        .execute();
    },
    async touchClient(id: string, at: string) {
      await db.updateTable('oauth_clients').set({ last_used_at: at }).where('id', '=', id).execute();
    },
    /** Registrations never used since `before` and without a grant. */
    async purgeUnusedClients(before: string) {
      await db
        .deleteFrom('oauth_clients')
        .where('kind', '=', 'registered')
        .where('created_at', '<', before)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
        .where((eb) => eb.not(eb.exists(eb.selectFrom('oauth_grants').select('id').whereRef('oauth_grants.client_id', '=', 'oauth_clients.id').where('status', '=', 'active'))))
        .execute();
    },

    /** Codes and tokens past their expiry are useless (a used refresh token is kept until then, to catch replays). */
    async purgeExpired(now: string) {
      await db.deleteFrom('oauth_codes').where('expires_at', '<', now).execute();
      await db.deleteFrom('oauth_tokens').where('expires_at', '<', now).execute();
    },
    async insertCode(row: OAuthCodesTable) {
      await db.insertInto('oauth_codes').values(row).execute();
    },
    /** The code with the state of the API key that approved it (null columns when there is none). */
    findCode(hash: string, exec: Executor = db) {
      return exec
        .selectFrom('oauth_codes')
        .leftJoin('api_keys', 'api_keys.id', 'oauth_codes.approved_by_key')
        .selectAll('oauth_codes')
        .select(APPROVER_COLUMNS)
        .where('oauth_codes.code_hash', '=', hash)
        .executeTakeFirst();
    },
    /** True for the one exchange that marks the code used; a replay gets false. */
    async useCode(hash: string, at: string, grantId: string, exec: Executor = db) {
      const r = await exec.updateTable('oauth_codes').set({ used_at: at, grant_id: grantId }).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async insertGrant(row: OAuthGrantsTable, exec: Executor = db) {
      await exec.insertInto('oauth_grants').values(row).execute();
    },
    /** The grant with the state of the API key that approved it (null columns when there is none). */
    findGrant(id: string, exec: Executor = db) {
      return exec
        .selectFrom('oauth_grants')
        .leftJoin('api_keys', 'api_keys.id', 'oauth_grants.approved_by_key')
        .selectAll('oauth_grants')
        .select(APPROVER_COLUMNS)
        .where('oauth_grants.id', '=', id)
        .executeTakeFirst();
    },
    listGrants(userId: string) {
      return db
        .selectFrom('oauth_grants')
        .leftJoin('api_keys', 'api_keys.id', 'oauth_grants.approved_by_key')
        .selectAll('oauth_grants')
        .select(APPROVER_COLUMNS)
        .where('oauth_grants.user_id', '=', userId)
        .where('oauth_grants.status', '=', 'active')
        .orderBy('oauth_grants.id', 'desc')
        .execute();
    },
    async revokeGrant(id: string, at: string, exec: Executor = db) {
      await exec.updateTable('oauth_grants').set({ status: 'revoked', revoked_at: at }).where('id', '=', id).where('status', '=', 'active').execute();
    },
    async touchGrant(id: string, now: string, staleBefore: string) {
      await db
        .updateTable('oauth_grants')
        .set({ last_used_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
        .execute();
    },

    async insertTokens(rows: OAuthTokensTable[], exec: Executor = db) {
      await exec.insertInto('oauth_tokens').values(rows).execute();
    },
    findToken(hash: string, exec: Executor = db) {
      return exec.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    },
    async useToken(hash: string, at: string, exec: Executor = db) {
      const r = await exec.updateTable('oauth_tokens').set({ used_at: at }).where('token_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** An access token with its grant, the approving key's state and the account's plan, for authenticating a request (one query). */
    findAccess(hash: string) {
      return db
        .selectFrom('oauth_tokens')
        .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
        .innerJoin('users', 'users.id', 'oauth_grants.user_id')
        .leftJoin('api_keys', 'api_keys.id', 'oauth_grants.approved_by_key')
        .select([
          'oauth_tokens.expires_at',
          'oauth_tokens.kind',
          'oauth_grants.id as grant_id',
          'oauth_grants.status',
          'oauth_grants.scopes',
          'oauth_grants.user_id',
          'oauth_grants.last_used_at',
          'oauth_grants.client_id',
          'oauth_grants.client_name',
          'oauth_grants.workspace_id',
          'users.plan',
        ])
        .select('oauth_grants.approved_by_key')
        .select(APPROVER_COLUMNS)
        .where('oauth_tokens.token_hash', '=', hash)
        .executeTakeFirst();
    },
  };
}
export type OAuthRepo = ReturnType<typeof createOAuthRepo>;
