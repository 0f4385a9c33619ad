/** The event catalogue as in src/events/catalog.ts (test/api/console-session.test.ts checks the two agree). */
export const EVENT_NAMES = [
  'sheet.created',
  'sheet.updated',
  'sheet.deleted',
  'spark.executed',
  'session.saved',
  'session.handover',
  'session.updated',
  'knowledge.saved',
  'export.completed',
  'todos.synced',
  'todo.deleted',
];
