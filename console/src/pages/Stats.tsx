import { api, useLoad } from '../api.ts';
import { HoursChart, Notice } from '../components.tsx';
import { useLive } from '../live.ts';

interface DayHours { date: string; hours: number }
interface Stats {
  sheets: { total: number; created_this_month: number };
  sparks: { executed_total: number; executed_this_month: number };
  worktime: { total_hours: number; this_month_hours: number };
  sessions: { total: number; this_month: number };
  daily_hours: DayHours[];
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Hours summed by a key of the day (the day itself, or the Monday of its week), oldest first. */
function sumBy(days: DayHours[], key: (date: string) => string) {
  const map = new Map<string, number>();
  for (const l of days) map.set(key(l.date), round((map.get(key(l.date)) ?? 0) + l.hours));
  return [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, hours]) => ({ date, hours }));
}

function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

export function StatsPage() {
  const stats = useLoad(() => api<{ stats: Stats }>('GET', '/stats').then((r) => r.stats), []);
  useLive(['spark.executed', 'sheet.created', 'session.saved'], () => stats.reload(), 1000);
  const s = stats.data;
  return (
    <>
      <h1>Stats</h1>
      <Notice error={stats.error} />
      {s && (
        <>
          <section class="card">
            <dl class="stats">
              <div><dt>Sparks run</dt><dd data-testid="sparks-total">{s.sparks.executed_total}</dd></div>
              <div><dt>Sparks this month</dt><dd>{s.sparks.executed_this_month}</dd></div>
              <div><dt>Sheets</dt><dd>{s.sheets.total}</dd></div>
              <div><dt>Sheets this month</dt><dd>{s.sheets.created_this_month}</dd></div>
              <div><dt>Sessions</dt><dd>{s.sessions.total}</dd></div>
              <div><dt>Work hours this month</dt><dd>{s.worktime.this_month_hours}</dd></div>
              <div><dt>Work hours in total</dt><dd>{s.worktime.total_hours}</dd></div>
            </dl>
          </section>
          <section class="card">
            <h2>Work hours by day</h2>
            <HoursChart days={s.daily_hours} />
            <h2>Work hours by week (from Monday)</h2>
            <HoursChart days={sumBy(s.daily_hours, mondayOf)} label="Work hours by week" />
            <p class="muted small-text">All work time of the last 56 days (UTC); days without work are left out.</p>
          </section>
        </>
      )}
    </>
  );
}
