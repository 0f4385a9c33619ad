import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';
import { newId } from '../../src/ids.js';
import { personalWorkspaceId } from '../../src/lib/workspace-ids.js';

for (const dialect of dialects()) {
  describe(`stats [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-06-30T23:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const worktime = (body: unknown, key = alice.key, action = 'worktime') => s.req('POST', `/v1/stats?action=${action}`, { key, body });
    const stats = async (key = alice.key) => {
      const r = await s.req('GET', '/v1/stats', { key });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['stats', 'success']);
      return r.body.stats;
    };
    /** Spark runs are written by the Sparks module; stats only reads them. */
    const sparkRun = (userId: string, at: string) =>
      s.c.db
        .insertInto('spark_runs')
        .values({ id: newId('run'), workspace_id: personalWorkspaceId(userId), user_id: userId, spark_id: 'spk_x', spark_name: 'X', sheet_id: null, created_at: at })
        .execute();

    it('records work time with every field, date defaulting to today (UTC, from the clock)', async () => {
      const r = await worktime({ hours: 1.5, project: 'api', description: 'Reviews' });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['log', 'success']);
      assert.match(r.body.log.id, /^wl_[0-9a-z]{26}$/);
      const personal = `wsp_${alice.userId.slice(4)}`;
      assert.deepEqual(r.body.log, { id: r.body.log.id, project: 'api', hours: 1.5, description: 'Reviews', date: '2026-06-30', createdAt: '2026-06-30T23:00:00.000Z', workspace_id: personal });
      const bare = await worktime({ hours: 24, date: '2024-02-29' });
      assert.deepEqual({ ...bare.body.log, id: 0, createdAt: 0 }, { id: 0, project: null, hours: 24, description: null, date: '2024-02-29', createdAt: 0, workspace_id: personal });
    });

    it('rejects bad work time and unknown actions with 400 naming the cause', async () => {
      assertError(await worktime({}), 400, 'invalid_request', /'hours' is required/);
      assertError(await worktime({ hours: '2' }), 400, 'invalid_request', /hours must be a number/);
      assertError(await worktime({ hours: 0 }), 400, 'invalid_request', /hours must be greater than 0/);
      assertError(await worktime({ hours: -1 }), 400, 'invalid_request', /hours/);
      assertError(await worktime({ hours: 24.01 }), 400, 'invalid_request', /hours must be at most 24/);
      for (const date of ['2026-02-29', '2026-13-01', '2026-04-31', '2026-1-05', '20260105', 'today', '2026-01-05T00:00:00Z']) {
        assertError(await worktime({ hours: 1, date }), 400, 'invalid_request', /date must be a real calendar date/);
      }
      assertError(await worktime({ hours: 1, project: 7 }), 400, 'invalid_request', /project/);
      assertError(await worktime({ hours: 1 }, alice.key, 'sleep'), 400, 'invalid_request', /action must be worktime/);
      assertError(await s.req('POST', '/v1/stats', { key: alice.key, body: { hours: 1 } }), 400, 'invalid_request', /action/);
      assertError(await s.req('GET', '/v1/stats'), 401, 'unauthorized');
      assertError(await worktime({ hours: 1 }, `sk_${'x'.repeat(43)}`), 401, 'unauthorized');
    });

    it('returns exactly the statistics object, counting this UTC month from the clock', async () => {
      const bob = await s.user('free');
      const key = bob.key;
      const zero = await stats(key);
      assert.deepEqual(zero, {
        workspace_id: `wsp_${bob.userId.slice(4)}`,
        sheets: { total: 0, created_this_month: 0 },
        sparks: { executed_total: 0, executed_this_month: 0 },
        worktime: { total_hours: 0, this_month_hours: 0 },
        sessions: { total: 0, this_month: 0 },
        recent_work_logs: [],
        daily_hours: [],
      });

      // Last millisecond of June.
      clock.set(new Date('2026-06-30T23:59:59.999Z'));
      await s.req('POST', '/v1/sheets', { key, body: { title: 'june' } });
      const trashedJune = (await s.req('POST', '/v1/sheets', { key, body: { title: 'june trashed' } })).body.id;
      await s.req('DELETE', `/v1/sheets/${trashedJune}`, { key });
      await s.req('POST', '/v1/sessions', { key, body: { title: 'june', summary: 's' } });
      await worktime({ hours: 0.1, date: '2026-06-30' }, key);
      await sparkRun(bob.userId, '2026-06-30T23:59:59.999Z');

      // First millisecond of July.
      clock.set(new Date('2026-07-01T00:00:00.000Z'));
      await s.req('POST', '/v1/sheets', { key, body: { title: 'july' } });
      await s.req('POST', '/v1/sheets', { key, body: { title: 'july 2' } });
      await s.req('POST', '/v1/sessions', { key, body: { title: 'july', summary: 's' } });
      await worktime({ hours: 0.2 }, key);
      await worktime({ hours: 0.1, date: '2026-07-31' }, key);
      await worktime({ hours: 3, date: '2026-08-01' }, key);
      await sparkRun(bob.userId, '2026-07-01T00:00:00.000Z');
      await sparkRun(bob.userId, '2026-07-15T10:00:00.000Z');
      await sparkRun(alice.userId, '2026-07-15T10:00:00.000Z');

      const july = await stats(key);
      assert.deepEqual(july.sheets, { total: 3, created_this_month: 2 }, 'trashed sheets are not counted');
      assert.deepEqual(july.sparks, { executed_total: 3, executed_this_month: 2 });
      assert.deepEqual(july.worktime, { total_hours: 3.4, this_month_hours: 0.3 }, 'by work date; sums are not 0.30000000000000004');
      assert.deepEqual(july.sessions, { total: 2, this_month: 1 });

      clock.set(new Date('2026-06-30T23:59:59.999Z'));
      const june = await stats(key);
      assert.deepEqual(june.sheets, { total: 3, created_this_month: 1 });
      assert.deepEqual(june.sparks, { executed_total: 3, executed_this_month: 1 });
      assert.deepEqual(june.worktime, { total_hours: 3.4, this_month_hours: 0.1 });
      assert.deepEqual(june.sessions, { total: 2, this_month: 1 });

      clock.set(new Date('2026-08-01T00:00:00.000Z'));
      const august = await stats(key);
      assert.deepEqual([august.sheets.created_this_month, august.sessions.this_month, august.sparks.executed_this_month, august.worktime.this_month_hours], [0, 0, 0, 3]);
    });

    it('lists the 10 newest work logs, by date then time recorded', async () => {
      const carol = await s.user('free');
      clock.set(new Date('2026-09-10T12:00:00.000Z'));
      const ids: string[] = [];
      for (let day = 1; day <= 12; day++) {
        clock.advance(1000);
        ids.push((await worktime({ hours: 1, project: `p${day}`, description: `d${day}`, date: `2026-09-${String(13 - day).padStart(2, '0')}` }, carol.key)).body.log.id);
      }
      clock.advance(1000);
      const sameDay = (await worktime({ hours: 2, date: '2026-09-12' }, carol.key)).body.log;
      const st = await stats(carol.key);
      assert.equal(st.recent_work_logs.length, 10);
      assert.deepEqual(Object.keys(st.recent_work_logs[0]).sort(), ['createdAt', 'date', 'description', 'hours', 'id', 'project', 'workspace_id']);
      assert.deepEqual(st.recent_work_logs[0], sameDay, 'same date: the later entry first');
      assert.deepEqual(
        st.recent_work_logs.slice(1).map((l: any) => l.id),
        ids.slice(0, 9),
      );
      assert.deepEqual(st.recent_work_logs[1], {
        ...{ id: ids[0], project: 'p1', hours: 1, description: 'd1', date: '2026-09-12', createdAt: '2026-09-10T12:00:01.000Z' },
        workspace_id: `wsp_${carol.userId.slice(4)}`,
      });
      assert.equal(st.worktime.total_hours, 14);
      assert.equal(
        (await stats(alice.key)).recent_work_logs.some((l: any) => ids.includes(l.id)),
        false,
        'other accounts are not counted',
      );
    });

    it('sums hours per work date over the last 56 UTC days from all logs, not only the 10 newest', async () => {
      const dave = await s.user('free');
      clock.set(new Date('2026-10-20T10:00:00.000Z'));
      const logs: [string, number][] = [
        ['2026-10-21', 2], // tomorrow: outside
        ['2026-10-20', 1.5],
        ['2026-10-20', 0.25],
        ['2026-10-19', 2],
        ['2026-10-15', 1],
        ['2026-10-15', 1],
        ['2026-10-15', 1],
        ['2026-10-01', 4],
        ['2026-09-20', 0.1],
        ['2026-09-20', 0.2],
        ['2026-08-26', 1], // the 56th day back, beyond the 10 newest logs
        ['2026-08-25', 5], // the 57th: outside
      ];
      await Promise.all(logs.map(([date, hours]) => worktime({ hours, date }, dave.key)));
      await worktime({ hours: 7, date: '2026-10-19' }, alice.key);
      const st = await stats(dave.key);
      assert.equal(st.recent_work_logs.length, 10);
      assert.equal(
        st.recent_work_logs.some((l: any) => l.date === '2026-08-26'),
        false,
        'the oldest day is not among the 10 newest logs',
      );
      assert.deepEqual(st.daily_hours, [
        { date: '2026-08-26', hours: 1 },
        { date: '2026-09-20', hours: 0.3 },
        { date: '2026-10-01', hours: 4 },
        { date: '2026-10-15', hours: 3 },
        { date: '2026-10-19', hours: 2 },
        { date: '2026-10-20', hours: 1.75 },
      ]);
    });
  });
}
