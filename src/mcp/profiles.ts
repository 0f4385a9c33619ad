import { AppError } from '../errors.js';

/**
 * Which tools an MCP connection offers. `full` (the default of /mcp): every tool. `coding`: the dozen a
 * coding session uses (briefing, search, sessions and handovers, todos, knowledge), which keeps the tool
 * list an assistant carries in every model request small (the Claude Code plugin connects with it).
 */
export const MCP_PROFILES = ['coding', 'full'] as const;
export type McpProfile = (typeof MCP_PROFILES)[number];

export const CODING_TOOLS: ReadonlySet<string> = new Set([
  'get_briefing',
  'search',
  'save_session',
  'update_session',
  'list_sessions',
  'get_session',
  'create_handover',
  'get_latest_handover',
  'list_todos',
  'sync_todos',
  'search_knowledge',
  'save_knowledge',
]);

/** The tools a profile offers: a set, or undefined for every tool. */
export const profileTools = (profile: McpProfile | undefined): ReadonlySet<string> | undefined => (profile === 'coding' ? CODING_TOOLS : undefined);

/** The profile asked for by `?profile=` or the `X-MCP-Profile` header (the query wins); 400 for another value. */
export function requestedProfile(query: unknown, header: string | string[] | undefined): McpProfile | undefined {
  const fromQuery = query && typeof query === 'object' ? (query as Record<string, unknown>).profile : undefined;
  const value = fromQuery ?? (Array.isArray(header) ? header[0] : header);
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string' && (MCP_PROFILES as readonly string[]).includes(value)) return value as McpProfile;
  throw new AppError('invalid_request', `profile must be one of: ${MCP_PROFILES.join(', ')} (query parameter profile or header X-MCP-Profile)`);
}
