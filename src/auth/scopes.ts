import { AppError } from '../errors.js';

/** Every scope a key or OAuth grant may hold; "*" is full access (the default for keys). */
export const SCOPES = [
  'sheets:read',
  'sheets:write',
  'sessions:read',
  'sessions:write',
  'knowledge:read',
  'knowledge:write',
  'todos:read',
  'todos:write',
  'sparks:run',
  'stats:read',
  'stats:write',
  'sparks:manage',
  'webhooks:manage',
  'keys:manage',
  'exports:create',
  'workspaces:read',
  'workspaces:manage',
] as const;
export type Scope = (typeof SCOPES)[number];
export const FULL_ACCESS = '*';
export type Granted = readonly string[];

export const hasScope = (granted: Granted | undefined, required: string) => !granted || granted.includes(FULL_ACCESS) || granted.includes(required);

export const insufficientScope = (required: string) => new AppError('insufficient_scope', `This credential lacks the scope ${required}`, undefined, { required_scope: required });

export function requireScope(granted: Granted | undefined, required: string): void {
  if (!hasScope(granted, required)) throw insufficientScope(required);
}

/** Every scope of `required` (a route's or tool's list); the 403 names the first one missing. */
export function requireScopes(granted: Granted | undefined, required: readonly string[]): void {
  const missing = required.find((s) => !hasScope(granted, s));
  if (missing) throw insufficientScope(missing);
}

export const hasScopes = (granted: Granted | undefined, required: readonly string[]) => required.every((s) => hasScope(granted, s));

/** The first scope of `wanted` that `granted` does not cover ("*" asks for everything). */
export function firstMissing(granted: Granted | undefined, wanted: Granted): string | undefined {
  if (!granted || granted.includes(FULL_ACCESS)) return undefined;
  if (wanted.includes(FULL_ACCESS)) return FULL_ACCESS;
  return wanted.find((s) => !granted.includes(s));
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// GET /v1/distill/usage is usage statistics (what distillation cost today): stats:read.
const DOMAINS: Record<string, string> = { sheets: 'sheets', sessions: 'sessions', knowledge: 'knowledge', todos: 'todos', stats: 'stats', distill: 'stats' };

/**
 * Exporting reads the sheet (and its link downloads without a credential), so it needs sheets:read
 * besides exports:create. A handover reads a session and writes a sheet; it shows the project's open
 * todos only to a credential with HANDOVER_TODOS_SCOPE (src/modules/sessions/sessions.service.ts).
 */
export const EXPORT_SCOPES = ['exports:create', 'sheets:read'] as const;
export const HANDOVER_SCOPES = ['sessions:write', 'sheets:write'] as const;
export const HANDOVER_TODOS_SCOPE = 'todos:read';

/**
 * The scopes a /v1 request needs (all of them; none: the route checks itself or needs no credential),
 * from its route pattern's first segment and its method, so routes other modules add under a known
 * prefix are covered without listing them. A prefix this table does not know needs full access ("*"):
 * a new area is closed to scoped credentials until it is named here.
 */
export function requiredScopes(method: string, routeUrl: string | undefined, action?: unknown): readonly string[] {
  const one = requiredScope(method, routeUrl, action);
  return typeof one === 'string' ? [one] : (one ?? []);
}

function requiredScope(method: string, routeUrl: string | undefined, action?: unknown): string | readonly string[] | undefined {
  if (!routeUrl?.startsWith('/v1/')) return undefined;
  const segments = routeUrl.slice(4).split('/');
  const [area] = segments;
  const read = READ_METHODS.has(method.toUpperCase());
  // POST /v1/sheets/:id/export makes a file of the sheet; revoking one (DELETE .../exports/:id) reads nothing.
  if (area === 'sheets' && !read && segments.includes('export')) return EXPORT_SCOPES;
  if (area === 'sheets' && !read && segments.includes('exports')) return 'exports:create';
  if (area === 'exports') return read ? 'sheets:read' : EXPORT_SCOPES;
  if (routeUrl === '/v1/sessions/handover') return HANDOVER_SCOPES;
  // GET /v1/briefing (and its Claude Code hook form) shows each part to a credential that reads it (src/modules/briefing/briefing.service.ts).
  if (routeUrl === '/v1/briefing' || routeUrl === '/v1/briefing/claude-code') return undefined;
  // GET /v1/search searches only the kinds the credential reads (src/modules/search/search.service.ts KIND_SCOPE).
  if (routeUrl === '/v1/search') return undefined;
  if (DOMAINS[area]) return `${DOMAINS[area]}:${read ? 'read' : 'write'}`;
  // GET /v1/spark lists what may be run and POST /v1/spark runs one, unless ?action=create makes a user
  // Spark; /v1/spark/:id is a user Spark itself. `action` is the parsed query value the handler reads,
  // so an encoded spelling (%63reate) cannot slip past a match on the raw URL.
  if (area === 'spark' || area === 'sparks') {
    if (segments.length === 1) return !read && [action].flat().includes('create') ? 'sparks:manage' : 'sparks:run';
    return read ? 'sparks:run' : 'sparks:manage';
  }
  // The event stream checks each event against the credential's scopes (src/events/event-scopes.ts).
  if (routeUrl === '/v1/events/stream') return undefined;
  if (area === 'webhooks') return 'webhooks:manage';
  if (area === 'api-keys' || area === 'oauth-grants' || area === 'connected-apps') return 'keys:manage';
  // Joining a workspace changes what the account can reach, so accepting an invitation manages workspaces too.
  if (area === 'workspaces' || area === 'invitations') return read ? 'workspaces:read' : 'workspaces:manage';
  return FULL_ACCESS;
}

/**
 * What MCP resources and prompts read, as the REST routes that read the same records require: a sheet
 * (and the listing of sheets) sheets:read, a project's latest handover sessions:read, and resume_work,
 * which shows the handover and the open todos, both sessions:read and todos:read.
 */
export const RESOURCE_SCOPES = {
  sheet: ['sheets:read'],
  handover: ['sessions:read'],
  resume_work: ['sessions:read', 'todos:read'],
} as const satisfies Record<string, readonly Scope[]>;

/**
 * An MCP tool's scopes (all of them) from its name and read-only hint, for tools that do not name
 * them: the same rules as REST. Unknown domains need full access.
 */
export function toolScopes(name: string, readOnly: boolean): readonly string[] {
  if (name === 'export_sheet') return EXPORT_SCOPES;
  if (name === 'create_handover') return HANDOVER_SCOPES;
  return [toolScope(name, readOnly)];
}

function toolScope(name: string, readOnly: boolean): string {
  const rw = readOnly ? 'read' : 'write';
  // Listing a sheet's exports is reading, as GET /v1/sheets/{id}/exports is.
  if (/export/.test(name)) return readOnly ? 'sheets:read' : 'exports:create';
  if (/webhook/.test(name)) return 'webhooks:manage';
  if (/^(run_spark|translate_text|list_sparks|get_spark)$/.test(name)) return 'sparks:run';
  if (/spark/.test(name)) return readOnly ? 'sparks:run' : 'sparks:manage';
  if (/api_key/.test(name)) return 'keys:manage';
  if (/workspace/.test(name)) return readOnly ? 'workspaces:read' : 'workspaces:manage';
  if (/knowledge/.test(name)) return `knowledge:${rw}`;
  if (/todo/.test(name)) return `todos:${rw}`;
  if (/session|handover/.test(name)) return `sessions:${rw}`;
  if (/stats|work_time/.test(name)) return `stats:${rw}`;
  if (/sheet|column/.test(name)) return `sheets:${rw}`;
  return FULL_ACCESS;
}
