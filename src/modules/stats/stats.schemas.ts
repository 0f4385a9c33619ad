import { z } from 'zod';
import { Timestamp, WorkspaceIdInput, WorkspaceIdView } from '../../lib/schema-fields.js';

/** A real calendar date: 2026-02-30 and 2026-13-01 are rejected. */
export function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export const WorkLog = z
  .object({
    id: z.string(),
    project: z.string().nullable(),
    hours: z.number(),
    description: z.string().nullable(),
    date: z.string().describe('Work date, YYYY-MM-DD.'),
    createdAt: Timestamp,
    workspace_id: WorkspaceIdView,
  })
  .meta({ id: 'WorkLog' });
export type WorkLogView = z.infer<typeof WorkLog>;

export const StatsActionQuery = z.object({
  action: z.enum(['worktime'], { error: 'action must be worktime' }).describe('The only action is worktime (record work time).'),
});

export const WorktimeBody = z.object({
  hours: z
    .number({ error: (iss) => (iss.input === undefined ? undefined : 'hours must be a number') })
    .gt(0, 'hours must be greater than 0')
    .lte(24, 'hours must be at most 24'),
  project: z.string().trim().max(200).optional(),
  description: z.string().max(10_000).optional(),
  date: z.string().refine(isCalendarDate, 'date must be a real calendar date in the form YYYY-MM-DD').optional().describe('Default: today (UTC).'),
  workspace_id: WorkspaceIdInput,
});
export type WorktimeInput = z.infer<typeof WorktimeBody>;

export const StatsQuery = z.object({ workspace_id: WorkspaceIdInput });

export const Stats = z
  .object({
    workspace_id: WorkspaceIdView.describe('The workspace (wsp_...) these figures count: only its records are counted'),
    sheets: z.object({
      total: z.number().int().describe('Sheets not in the trash.'),
      created_this_month: z.number().int().describe('Sheets not in the trash created in the current UTC month.'),
    }),
    sparks: z.object({ executed_total: z.number().int(), executed_this_month: z.number().int() }),
    worktime: z.object({
      total_hours: z.number(),
      this_month_hours: z.number().describe('Hours of logs whose date falls in the current UTC month.'),
    }),
    sessions: z.object({ total: z.number().int(), this_month: z.number().int() }),
    recent_work_logs: z.array(WorkLog).describe('The 10 newest work logs by date, then by time recorded.'),
    daily_hours: z
      .array(z.object({ date: z.string().describe('Work date, YYYY-MM-DD.'), hours: z.number() }))
      .describe('Hours of all work logs per work date over the last 56 UTC days (today included), oldest first; days without work are omitted.'),
  })
  .meta({ id: 'Stats' });
export type StatsView = z.infer<typeof Stats>;

export const WorktimeResponse = z.object({ success: z.literal(true), log: WorkLog });
export const StatsResponse = z.object({ success: z.literal(true), stats: Stats });
