import { sql, type Kysely } from 'kysely';

/**
 * Workspaces (teams, issue 33): every account has a personal workspace, and team workspaces have members
 * with a role (owner, admin, editor, viewer). Invitations are single-use tokens stored hashed.
 *
 * The personal workspace of an existing account gets a derived id, 'wsp_' + the account id without its
 * 'usr_' prefix, so the backfill is plain portable SQL; accounts made later get the same derivation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('personal', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspace_members')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workspace_members_user').on('workspace_members').columns(['user_id', 'workspace_id']).execute();

  await db.schema
    .createTable('workspace_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_by', 'text')
    .addColumn('accepted_at', 'text')
    .execute();
  await db.schema.createIndex('workspace_invitations_workspace').on('workspace_invitations').columns(['workspace_id', 'id']).execute();

  await sql`insert into workspaces (id, name, personal, created_by, created_at, updated_at)
    select 'wsp_' || substr(id, 5), 'Personal', 1, id, created_at, created_at from users`.execute(db);
  await sql`insert into workspace_members (workspace_id, user_id, role, created_at)
    select 'wsp_' || substr(id, 5), id, 'owner', created_at from users`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
