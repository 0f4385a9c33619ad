import { z } from 'zod';
import { WorkspaceIdInput, WorkspaceIdView, expectedVersionField } from '../../lib/schema-fields.js';

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export const TODO_PRIORITIES = ['low', 'medium', 'high'] as const;
export const SYNC_MAX_ITEMS = 500;

const Status = z.enum(TODO_STATUSES, { error: 'status must be one of pending, in_progress, completed' });
const Priority = z.enum(TODO_PRIORITIES, { error: 'priority must be one of low, medium, high' });
const Project = z.string().trim().max(200);

export const Todo = z
  .object({
    id: z.string(),
    content: z.string(),
    status: z.enum(TODO_STATUSES),
    project: z.string().describe('Project name; "" means the task belongs to no project.'),
    priority: z.enum(TODO_PRIORITIES),
    activeForm: z.string().nullable().describe('Present-tense form shown while the task is in progress (coding assistants).'),
    createdAt: z.number().int().describe('Epoch time in milliseconds.'),
    version: z.number().int().describe('1 at creation, +1 on every change.'),
    workspace_id: WorkspaceIdView,
  })
  .meta({ id: 'Todo' });
export type TodoView = z.infer<typeof Todo>;

export const ListTodosQuery = z.object({
  status: Status.optional(),
  project: Project.optional().describe('Only tasks of this project; an empty value selects tasks with no project.'),
  workspace_id: WorkspaceIdInput,
});

export const SyncTodoItem = z.object({
  id: z.string().min(1).max(100).optional().describe('Updates exactly this task; unknown -> 404, a task of another account or of another workspace than the one synced -> 403.'),
  content: z.string().trim().min(1, 'content must not be empty').max(10_000),
  status: Status,
  priority: Priority.optional().describe('Default medium on create; kept on update when omitted.'),
  activeForm: z.string().max(10_000).nullable().optional(),
  expected_version: expectedVersionField.describe('With id only: update the task only if it is at this version; otherwise 412 version_conflict (with current_version) and the whole sync changes nothing.'),
});
export type SyncTodoItemInput = z.infer<typeof SyncTodoItem>;

export const SyncTodosBody = z.object({
  todos: z.array(SyncTodoItem).max(SYNC_MAX_ITEMS, `todos must have at most ${SYNC_MAX_ITEMS} items`),
  project: Project.optional().describe('Omitted or "" means no project.'),
  session_ref: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9._:-]+$/, 'session_ref may contain only letters, digits and . _ : - (a session id, or a reference such as cc:<id>)')
    .optional()
    .describe('The session making this change (a session id, or its external_id such as cc:<id>): the briefing says where a task was left.'),
  workspace_id: WorkspaceIdInput,
});
export type SyncTodosInput = z.infer<typeof SyncTodosBody>;

export const ListTodosResponse = z.object({ success: z.literal(true), todos: z.array(Todo) });
export const SyncTodosResponse = z.object({
  success: z.literal(true),
  created: z.number().int().describe('Elements that created a new task.'),
  updated: z.number().int().describe('Elements that matched an existing task (by id, or by project + trimmed content).'),
  todos: z.array(Todo).describe("The request project's tasks after the sync, newest first."),
});
export const DeleteTodoResponse = z.object({ success: z.literal(true), id: z.string(), deleted: z.literal(true) });
