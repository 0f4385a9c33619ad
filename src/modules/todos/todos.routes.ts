import type { ZApp } from '../../http/types.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import { IfMatchHeaders } from '../../http/preconditions.js';
import { expectedVersions } from '../../auth/expected-versions.js';
import type { TodosService } from './todos.service.js';
import { DeleteTodoResponse, ListTodosQuery, ListTodosResponse, SyncTodosBody, SyncTodosResponse } from './todos.schemas.js';

export function registerTodoRoutes(app: ZApp, todos: TodosService) {
  const tags = ['Todos'];
  const ok = true as const;

  app.get('/todos', {
    schema: { tags, operationId: 'listTodos', summary: 'List tasks, optionally by status and project (newest first)', querystring: ListTodosQuery, response: responses(ListTodosResponse) },
    handler: async (req) => ({ success: ok, todos: await todos.list(req.auth, req.query) }),
  });
  app.post('/todos', {
    schema: {
      tags,
      operationId: 'syncTodos',
      summary: 'Bulk-sync tasks: match by id, else by project + trimmed content, else create; all or nothing',
      description: 'Concurrent syncs of the same elements converge on one task each (matching goes through a unique key). An element with id may carry expected_version.',
      body: SyncTodosBody,
      response: responses(SyncTodosResponse, 403, 404, 412, 413, 415),
    },
    handler: async (req) => ({ success: ok, ...(await todos.sync(req.auth, req.body)) }),
  });
  app.delete('/todos/:id', {
    schema: { tags, operationId: 'deleteTodo', summary: 'Remove one task', params: IdParams, headers: IfMatchHeaders, response: responses(DeleteTodoResponse, 403, 404, 412) },
    handler: async (req) => ({ success: ok, ...(await todos.remove(req.auth, req.params.id, expectedVersions(req.headers['if-match']))) }),
  });
}
