import { api, useLoad } from '../api.ts';
import { HoursChart, Notice, type Bar } from '../components.tsx';
import { useLive } from '../live.ts';
import type { ApiResponse, DayHours } from '../types.ts';

const round = (n: number) => Math.round(n * 100) / 100;
const DAY_MS = 86_400_000;
/** The day chart's span; the week chart covers all 56 days the API answers. */
export const CHART_DAYS = 28;
const WEEKS_DAYS = 56;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const todayMs = () => Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const monthDay = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** Every one of the last `days` UTC days, oldest first, empty days as 0 (the API leaves them out). */
function everyDay(logged: DayHours[], days: number): DayHours[] {
  const byDate = new Map(logged.map((d) => [d.date, d.hours]));
  const today = todayMs();
  return Array.from({ length: days }, (_, i) => {
    const date = isoDay(today - (days - 1 - i) * DAY_MS);
    return { date, hours: byDate.get(date) ?? 0 };
  });
}

const dayBars = (days: DayHours[]): Bar[] => days.map((d) => ({ key: d.date, label: String(Number(d.date.slice(8))), hours: d.hours, title: `${d.date}: ${d.hours} h` }));

function weekBars(days: DayHours[]): Bar[] {
  const weeks = new Map<string, number>();
  for (const d of days) weeks.set(mondayOf(d.date), round((weeks.get(mondayOf(d.date)) ?? 0) + d.hours));
  return [...weeks].map(([monday, hours]) => ({ key: monday, label: monthDay(monday), hours, title: `Week of ${monday}: ${hours} h` }));
}

export function StatsPage() {
  const stats = useLoad(() => api<ApiResponse<'getStats'>>('GET', '/stats').then((r) => r.stats), []);
  useLive(['spark.executed', 'sheet.created', 'session.saved'], () => stats.reload(), 1000);
  const s = stats.data;
  const days = everyDay(s?.daily_hours ?? [], CHART_DAYS);
  return (
    <>
      <h1>Stats</h1>
      <Notice error={stats.error} />
      {s && (
        <>
          <section class="card">
            <dl class="stats">
              <div>
                <dt>Sparks run</dt>
                <dd data-testid="sparks-total">{s.sparks.executed_total}</dd>
              </div>
              <div>
                <dt>Sparks this month</dt>
                <dd>{s.sparks.executed_this_month}</dd>
              </div>
              <div>
                <dt>Sheets</dt>
                <dd>{s.sheets.total}</dd>
              </div>
              <div>
                <dt>Sheets this month</dt>
                <dd>{s.sheets.created_this_month}</dd>
              </div>
              <div>
                <dt>Sessions</dt>
                <dd>{s.sessions.total}</dd>
              </div>
              <div>
                <dt>Work hours this month</dt>
                <dd>{s.worktime.this_month_hours}</dd>
              </div>
              <div>
                <dt>Work hours in total</dt>
                <dd>{s.worktime.total_hours}</dd>
              </div>
            </dl>
          </section>
          <section class="card">
            <h2>
              Work hours by day{' '}
              <span class="muted small-text">
                last {CHART_DAYS} days, {monthDay(days[0].date)} to {monthDay(days[days.length - 1].date)}
              </span>
            </h2>
            <HoursChart bars={dayBars(days)} label="Work hours by day" slot={28} />
            <h2>
              Work hours by week <span class="muted small-text">from Monday, last {WEEKS_DAYS} days</span>
            </h2>
            <HoursChart bars={weekBars(everyDay(s.daily_hours, WEEKS_DAYS))} label="Work hours by week" slot={64} />
            <p class="muted small-text">Work time by UTC day; a day without work is an empty bar.</p>
          </section>
        </>
      )}
    </>
  );
}
