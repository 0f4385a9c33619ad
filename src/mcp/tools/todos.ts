import { z } from 'zod';
import type { TodosService } from '../../modules/todos/todos.service.js';
import { IdParams, expectedVersionField, recordInWorkspace } from '../../lib/schema-fields.js';
import { expectedVersions } from '../../auth/expected-versions.js';
import { DeleteTodoResponse, ListTodosQuery, ListTodosResponse, SyncTodosBody, SyncTodosResponse } from '../../modules/todos/todos.schemas.js';
import { READ_ONLY, type ToolRegistry } from '../tool.js';

/** The services these tools call. */
export interface TodoToolDeps {
  todos: TodosService;
}

export function registerTodoTools(t: ToolRegistry, deps: TodoToolDeps): void {
  t.define('list_todos', {
    title: 'List todos',
    description:
      'List tasks, newest first, optionally only one status (pending, in_progress, completed) and/or one project ("" = tasks with no project). ' +
      'Returns every matching task (total says how many; has_more is always false). workspace_id lists a team workspace (default: your personal one).',
    input: ListTodosQuery,
    output: ListTodosResponse.extend({ total: z.number().int(), has_more: z.boolean() }),
    annotations: READ_ONLY,
    source: 'querystring',
    run: async (args, auth) => {
      const todos = await deps.todos.list(auth, args);
      return { success: true as const, todos, total: todos.length, has_more: false };
    },
  });

  t.define('sync_todos', {
    creates: true,
    title: 'Sync the todo list',
    description:
      "Bulk-sync your task list for a project (the shape of a coding assistant's todo list: content, status, optional priority low/medium/high, activeForm). " +
      'An element with id updates that task; without id it updates the task of the same project with the same trimmed content, else creates one. ' +
      "Tasks not in the list are left alone. All or nothing. Returns created/updated counts and the project's tasks after the sync. " +
      "workspace_id syncs a team workspace's list (default: your personal one); an id must name a task of that workspace.",
    input: SyncTodosBody,
    output: SyncTodosResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, ...(await deps.todos.sync(auth, args)) }),
  });

  t.define('delete_todo', {
    title: 'Delete a todo',
    description: 'Remove one task for good (to close a task, sync it with status completed instead).',
    input: z.object({
      id: IdParams.shape.id.describe('Task id, e.g. td_01j...'),
      expected_version: expectedVersionField,
      workspace_id: recordInWorkspace('task'),
    }),
    output: DeleteTodoResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ id, expected_version, workspace_id }, auth) => ({
      success: true as const,
      ...(await deps.todos.remove(auth, id, expectedVersions(undefined, expected_version), { workspace_id })),
    }),
  });
}
