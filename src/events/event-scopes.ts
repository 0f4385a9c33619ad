import { AppError } from '../errors.js';
import { FULL_ACCESS, hasScope, type Granted, type Scope } from '../auth/scopes.js';
import { EVENT_NAMES, type EventName } from './catalog.js';

/**
 * Which scopes may read each event on GET /v1/events/stream (any one of them): the scope that reads
 * the record the event is about. An export is a file of a sheet; a Spark run shows both where Sparks
 * are run and in the run counts of the statistics.
 */
export const EVENT_READ_SCOPES: Record<EventName, readonly Scope[]> = {
  'sheet.created': ['sheets:read'],
  'sheet.updated': ['sheets:read'],
  'sheet.deleted': ['sheets:read'],
  'export.completed': ['sheets:read'],
  'session.saved': ['sessions:read'],
  'session.handover': ['sessions:read'],
  'session.updated': ['sessions:read'],
  'knowledge.saved': ['knowledge:read'],
  'spark.executed': ['sparks:run', 'stats:read'],
  'todos.synced': ['todos:read'],
  'todo.deleted': ['todos:read'],
};

/** The events a credential may receive on the event stream (all of them with full access). */
export function readableEvents(granted: Granted | undefined): EventName[] {
  return EVENT_NAMES.filter((e) => EVENT_READ_SCOPES[e].some((s) => hasScope(granted, s)));
}

/** The 403 for an event the credential may not read; required_scope names the first scope that would allow it. */
export function eventScopeError(event: EventName): AppError {
  const allowed = EVENT_READ_SCOPES[event];
  return new AppError('insufficient_scope', `The event ${event} needs the scope ${allowed.join(' or ')}`, undefined, { required_scope: allowed[0] });
}

/**
 * A webhook may only subscribe to events the credential could read on the event stream, so
 * webhooks:manage alone does not reach other domains' payloads; "*" needs every event readable.
 */
export function requireReadableEvents(granted: Granted | undefined, events: readonly string[]): void {
  const wanted = events.includes(FULL_ACCESS) ? EVENT_NAMES : (events.filter((e) => e in EVENT_READ_SCOPES) as EventName[]);
  const denied = wanted.find((e) => !EVENT_READ_SCOPES[e].some((s) => hasScope(granted, s)));
  if (denied) throw eventScopeError(denied);
}
