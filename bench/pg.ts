import pg from 'pg';

/** A fresh database on the server that `url` names, dropped after the run. */
export async function freshPostgres(url: string | undefined) {
  if (!url) throw new Error('--pg needs DATABASE_URL or TEST_POSTGRES_URL');
  const name = `sw_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
