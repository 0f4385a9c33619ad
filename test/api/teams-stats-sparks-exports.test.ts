import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects, request, type Res } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { assertForbidden, makeTeam } from '../teams-helpers.js';

/** Work logs and stats, user sparks and spark runs, and exports in a team workspace (issue 33). */
for (const dialect of dialects()) {
  describe(`teams: stats, sparks and exports [${dialect}]`, () => {
    const { s, users, beforeClose } = useServer(dialect, { users: { alice: 'pro', bob: 'pro', carol: 'pro', dave: 'pro' } });
    const { alice, bob, carol, dave } = users;
    const personal = (u: TestUser) => `wsp_${u.userId.slice(4)}`;
    const call = (u: TestUser, method: string, path: string, body?: unknown) => s.req(method, path, { key: u.key, body });
    const UNKNOWN_WORKSPACE = 'wsp_01jzzzzzzzzzzzzzzzzzzzzzzz';

    async function expectOk(r: Res) {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    }
    /** A fresh team of alice (owner), bob (editor) and carol (viewer); dave stays outside. */
    const team = (name: string) =>
      makeTeam(s, alice, name, [
        [bob, 'editor'],
        [carol, 'viewer'],
      ]);
    const sheetIn = async (workspaceId: string | undefined, by = alice) =>
      (await expectOk(await call(by, 'POST', '/v1/sheets', { title: 'Plan', content: { col1: '<p>one two three</p>' }, workspace_id: workspaceId }))).sheet.id as string;
    const statsOf = async (u: TestUser, workspaceId?: string) => (await expectOk(await call(u, 'GET', `/v1/stats${workspaceId ? `?workspace_id=${workspaceId}` : ''}`))).stats;
    const logWork = (u: TestUser, body: Record<string, unknown>) => call(u, 'POST', '/v1/stats?action=worktime', body);

    it("work logs go into the team; GET /stats?workspace_id= counts only the team's records", async () => {
      const id = await team('Stats team');
      const before = await statsOf(alice);
      const logged = await expectOk(await logWork(alice, { hours: 2, project: 'team', workspace_id: id }));
      assert.equal(logged.log.workspace_id, id);
      await expectOk(await logWork(bob, { hours: 1.5, workspace_id: id }));
      await expectOk(await logWork(alice, { hours: 3 }));
      await sheetIn(id);

      const teamStats = await statsOf(carol, id);
      assert.equal(teamStats.workspace_id, id);
      assert.deepEqual(teamStats.worktime, { total_hours: 3.5, this_month_hours: 3.5 });
      assert.equal(teamStats.sheets.total, 1);
      assert.equal(teamStats.recent_work_logs.length, 2);
      assert.ok(teamStats.recent_work_logs.every((l: any) => l.workspace_id === id));

      // Without workspace_id: the personal workspace, exactly as before teams.
      const mine = await statsOf(alice);
      assert.equal(mine.workspace_id, personal(alice));
      assert.equal(mine.worktime.total_hours, before.worktime.total_hours + 3);
      assert.equal(mine.sheets.total, before.sheets.total, "the team's sheet is not counted in alice's personal stats");
      assert.ok(!mine.recent_work_logs.some((l: any) => l.id === logged.log.id));
      assert.equal((await statsOf(bob)).worktime.total_hours, 0, "bob's team log is not his personal one");

      assertForbidden(await logWork(carol, { hours: 1, workspace_id: id }), 'editor');
      assertForbidden(await call(dave, 'GET', `/v1/stats?workspace_id=${id}`), 'viewer');
      assertForbidden(await logWork(dave, { hours: 1, workspace_id: id }), 'editor');
      assertError(await call(alice, 'GET', `/v1/stats?workspace_id=${UNKNOWN_WORKSPACE}`), 404, 'not_found', /workspace/);
      assertError(await call(alice, 'GET', '/v1/stats?workspace_id=team'), 400, 'invalid_request', /workspace_id/);
      assertError(await logWork(alice, { hours: 1, workspace_id: 42 }), 400, 'invalid_request', /workspace_id/);
      assert.equal((await statsOf(alice, id)).worktime.total_hours, 3.5, 'refused writes left nothing');
    });

    it('user sparks: made in the team, listed there only, read by members, changed by editors', async () => {
      const id = await team('Sparks team');
      const made = await expectOk(await call(alice, 'POST', '/v1/spark?action=create', { name: 'Team tone', prompt: 'Rewrite: {{content}}', workspace_id: id }));
      assert.equal(made.spark.workspace_id, id);
      const sparkId = made.id as string;
      const listed = await expectOk(await call(carol, 'GET', `/v1/spark?workspace_id=${id}`));
      assert.deepEqual(
        listed.sparks.filter((x: any) => x.type === 'user').map((x: any) => [x.id, x.workspace_id]),
        [[sparkId, id]],
      );
      assert.ok(
        listed.sparks.some((x: any) => x.type === 'public' && x.workspace_id === null),
        'public sparks are listed too',
      );
      for (const u of [alice, bob]) {
        const own = (await expectOk(await call(u, 'GET', '/v1/spark'))).sparks.filter((x: any) => x.type === 'user');
        assert.ok(!own.some((x: any) => x.id === sparkId), 'the default list is the personal workspace only');
      }

      assert.equal((await expectOk(await call(carol, 'GET', `/v1/spark/${sparkId}`))).spark.workspace_id, id);
      assertForbidden(await call(carol, 'PUT', `/v1/spark/${sparkId}`, { name: 'viewer edit' }), 'editor');
      assertForbidden(await call(carol, 'DELETE', `/v1/spark/${sparkId}`), 'editor');
      assertForbidden(await call(carol, 'POST', '/v1/spark?action=create', { name: 'x', prompt: 'p', workspace_id: id }), 'editor');
      assertForbidden(await call(dave, 'GET', `/v1/spark/${sparkId}`), 'viewer');
      assertForbidden(await call(dave, 'GET', `/v1/spark?workspace_id=${id}`), 'viewer');
      // An outsider cannot run the team's spark either: refused before any provider is asked.
      assertForbidden(await call(dave, 'POST', '/v1/spark', { spark_id: sparkId, content: 'hi' }), 'viewer');
      assertError(await call(dave, 'GET', '/v1/spark/spk_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');

      const edited = await expectOk(await call(bob, 'PUT', `/v1/spark/${sparkId}`, { name: 'Team voice' }));
      assert.deepEqual([edited.spark.name, edited.spark.workspace_id], ['Team voice', id]);
      await expectOk(await call(bob, 'DELETE', `/v1/spark/${sparkId}`));
      assertError(await call(alice, 'GET', `/v1/spark/${sparkId}`), 404, 'not_found');
    });

    it("a run on a team sheet needs read access to it and counts in the team's stats", async () => {
      const id = await team('Runs team');
      const sheet = await sheetIn(id);
      const ran = await expectOk(await call(carol, 'POST', '/v1/spark', { spark_id: 'spk_word_count', content: 'one two three', sheet_id: sheet }));
      assert.match(ran.result, /Words: 3/);
      await expectOk(await call(carol, 'POST', '/v1/spark', { spark_id: 'spk_word_count', content: 'x', workspace_id: id }));
      assertForbidden(await call(dave, 'POST', '/v1/spark', { spark_id: 'spk_word_count', content: 'x', sheet_id: sheet }), 'viewer');
      assertForbidden(await call(dave, 'POST', '/v1/spark', { spark_id: 'spk_word_count', content: 'x', workspace_id: id }), 'viewer');
      const elsewhere = await call(carol, 'POST', '/v1/spark', { spark_id: 'spk_word_count', content: 'x', sheet_id: sheet, workspace_id: personal(carol) });
      assertError(elsewhere, 403, 'forbidden', new RegExp(`is in workspace ${id}`));
      assertError(await call(carol, 'POST', '/v1/spark', { spark_id: 'spk_word_count', content: 'x', sheet_id: 'sht_01jzzzzzzzzzzzzzzzzzzzzzzz' }), 404, 'not_found');

      assert.deepEqual((await statsOf(alice, id)).sparks, { executed_total: 2, executed_this_month: 2 });
      assert.equal((await statsOf(carol)).sparks.executed_total, 0, "carol's personal stats count none of the team's runs");
      const events = (await s.events('spark.executed')).filter((e) => e.workspace_id === id);
      assert.deepEqual(
        events.map((e) => [e.data.sheet_id, e.data.workspace_id, e.data.actor_id]),
        [
          [sheet, id, carol.userId],
          [null, id, carol.userId],
        ],
      );
    });

    it("an export of a team sheet is the team's: editors make and revoke it, members list it", async () => {
      const id = await team('Exports team');
      const sheet = await sheetIn(id);
      const made = await expectOk(await call(bob, 'POST', `/v1/sheets/${sheet}/export`, { format: 'txt' }));
      assert.equal(made.workspace_id, id);
      const row = await s.c.db.selectFrom('exports').select(['workspace_id', 'user_id']).where('id', '=', made.export_id).executeTakeFirstOrThrow();
      assert.deepEqual([row.workspace_id, row.user_id], [id, bob.userId], "the team's record, made by bob");
      const ev = (await s.events('export.completed')).find((e) => e.data.url === made.url)!;
      assert.deepEqual([ev.workspace_id, ev.data.workspace_id, ev.data.actor_id], [id, id, bob.userId]);
      const file = await request(s.url, 'GET', new URL(made.url).pathname);
      assert.equal(file.status, 200);

      const listed = await expectOk(await call(carol, 'GET', `/v1/sheets/${sheet}/exports?workspace_id=${id}`));
      assert.deepEqual(
        listed.exports.map((x: any) => [x.export_id, x.workspace_id]),
        [[made.export_id, id]],
      );
      assertForbidden(await call(carol, 'POST', `/v1/sheets/${sheet}/export`, { format: 'txt' }), 'editor');
      assertForbidden(await call(carol, 'DELETE', `/v1/sheets/${sheet}/exports/${made.export_id}`), 'editor');
      assertForbidden(await call(dave, 'POST', `/v1/sheets/${sheet}/export`, { format: 'txt' }), 'viewer');
      assertForbidden(await call(dave, 'GET', `/v1/sheets/${sheet}/exports`), 'viewer');
      assertError(await call(dave, 'POST', '/v1/sheets/sht_01jzzzzzzzzzzzzzzzzzzzzzzz/export', { format: 'txt' }), 404, 'not_found');
      const mismatch = await call(bob, 'POST', `/v1/sheets/${sheet}/export`, { format: 'txt', workspace_id: personal(bob) });
      assertError(mismatch, 403, 'forbidden', new RegExp(`is in workspace ${id}`));
      assert.equal((await expectOk(await call(alice, 'GET', `/v1/sheets/${sheet}/exports`))).exports.length, 1, 'refused exports made nothing');

      const own = await expectOk(await call(alice, 'POST', `/v1/sheets/${await sheetIn(undefined)}/export`, { format: 'json' }));
      assert.equal(own.workspace_id, personal(alice), 'a personal sheet exports into the personal workspace, as before');
      await expectOk(await call(bob, 'DELETE', `/v1/sheets/${sheet}/exports/${made.export_id}`));
      assert.equal((await request(s.url, 'GET', new URL(made.url).pathname)).status, 404);
    });

    it('MCP: the tools take workspace_id and their results say which workspace', async () => {
      const id = await team('MCP team');
      const sheet = await sheetIn(id);
      const client = await httpClient(s, bob.key);
      beforeClose(() => client.close());
      const tool = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

      assert.equal(ok(await tool('log_work_time', { hours: 1.25, workspace_id: id })).log.workspace_id, id);
      const st = ok(await tool('get_stats', { workspace_id: id }));
      assert.deepEqual([st.stats.workspace_id, st.stats.worktime.total_hours], [id, 1.25]);
      const spark = ok(await tool('create_spark', { name: 'MCP spark', prompt: 'Do: {{content}}', workspace_id: id }));
      assert.equal(spark.spark.workspace_id, id);
      const listed = ok(await tool('list_sparks', { workspace_id: id }));
      assert.deepEqual(
        listed.sparks.filter((x: any) => x.type === 'user').map((x: any) => x.id),
        [spark.id],
      );
      assert.equal(ok(await tool('get_spark', { id: spark.id, workspace_id: id })).spark.workspace_id, id);
      toolError(await tool('get_spark', { id: spark.id, workspace_id: personal(bob) }), 403, 'forbidden');
      assert.equal(ok(await tool('run_spark', { spark_id: 'spk_word_count', content: 'a b', sheet_id: sheet })).spark_id, 'spk_word_count');
      const exported = ok(await tool('export_sheet', { id: sheet, format: 'markdown' }));
      assert.equal(exported.workspace_id, id);
      assert.equal(ok(await tool('list_sheet_exports', { id: sheet, workspace_id: id })).exports[0].workspace_id, id);

      const viewer = await httpClient(s, carol.key);
      beforeClose(() => viewer.close());
      const refused = (await viewer.callTool({ name: 'export_sheet', arguments: { id: sheet, format: 'txt' } })) as { isError?: boolean; content: { text: string }[] };
      assert.equal(refused.isError, true);
      const body = JSON.parse(refused.content[0]!.text);
      assert.deepEqual([body.status, body.code, body.required_role], [403, 'forbidden', 'editor']);
      assert.equal((await statsOf(carol, id)).sparks.executed_total, 1);
    });
  });
}
