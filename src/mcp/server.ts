import pkg from '../../package.json' with { type: 'json' };
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from 'pino';
import type { AuthContext } from '../auth/context.js';
import type { IdempotencyService } from '../modules/idempotency/idempotency.service.js';
import { registerPrompts, type PromptDeps } from './prompts.js';
import { registerResources, type ResourceDeps } from './resources.js';
import { ToolRegistry, type AuthSource } from './tool.js';
import { profileTools, type McpProfile } from './profiles.js';
import { registerExportTools, type ExportToolDeps } from './tools/exports.js';
import { registerKnowledgeTools, type KnowledgeToolDeps } from './tools/knowledge.js';
import { registerSessionTools, type SessionToolDeps } from './tools/sessions.js';
import { registerBriefingTools, type BriefingToolDeps } from './tools/briefing.js';
import { registerSheetTools, type SheetToolDeps } from './tools/sheets.js';
import { registerSheetContentTools, type SheetContentToolDeps } from './tools/sheet-content.js';
import { registerSparkTools, type SparkToolDeps } from './tools/sparks.js';
import { registerWebhookTools, type WebhookToolDeps } from './tools/webhooks.js';
import { registerStatsTools, type StatsToolDeps } from './tools/stats.js';
import { registerTodoTools, type TodoToolDeps } from './tools/todos.js';
import { registerWorkspaceTools, type WorkspaceToolDeps } from './tools/workspaces.js';
import { registerSearchTools, type SearchToolDeps } from './tools/search.js';

const INSTRUCTIONS = `Sheet Workspace is the user's working memory for coding with AI assistants.
Sheets are documents of HTML columns (col1..col99). Sessions are saved summaries of past work; a handover
is a sheet generated from a session for the next session to pick up. The knowledge base keeps solutions to
errors and code snippets. Todos are the project's task list. Every tool works on the account of the API key.
Errors come back as tool errors whose text is JSON {success:false, error, code, status}, as the REST API gives them.`;

export interface McpServerOptions {
  logger?: Logger;
  /** Public origin of export download links (http://host:port, no trailing slash). */
  origin: string;
  /** The credential's scopes when `auth` is a function (stdio): tools/list then shows only the allowed tools. */
  scopes?: readonly string[];
  /** Which tools this connection offers (src/mcp/profiles.ts); default every tool. */
  profile?: McpProfile;
}

/**
 * What the MCP server uses of the container (which satisfies it as it is): the services its tools,
 * resources and prompts call, the idempotency store shared with REST, and the result size limit.
 */
export type McpServices = SheetToolDeps &
  SheetContentToolDeps &
  ExportToolDeps &
  SessionToolDeps &
  BriefingToolDeps &
  KnowledgeToolDeps &
  TodoToolDeps &
  StatsToolDeps &
  SparkToolDeps &
  WebhookToolDeps &
  WorkspaceToolDeps &
  SearchToolDeps &
  ResourceDeps &
  PromptDeps & { idempotency: IdempotencyService; config: { mcpResultMaxChars: number } };

/** Registers every tool with the same zod schemas and services as REST; each tool file gets only the services it calls. */
export function buildToolRegistry(c: McpServices, origin: string): ToolRegistry {
  const tools = new ToolRegistry(c.config.mcpResultMaxChars, c.idempotency);
  registerSheetTools(tools, { sheets: c.sheets });
  registerSheetContentTools(tools, { sheets: c.sheets });
  registerExportTools(tools, { exports: c.exports }, origin);
  registerSessionTools(tools, { sessions: c.sessions });
  registerBriefingTools(tools, { briefing: c.briefing });
  registerSearchTools(tools, { search: c.search });
  registerKnowledgeTools(tools, { knowledge: c.knowledge });
  registerTodoTools(tools, { todos: c.todos });
  registerStatsTools(tools, { stats: c.stats });
  registerSparkTools(tools, { sparks: c.sparks });
  registerWebhookTools(tools, { webhooks: c.webhooks });
  registerWorkspaceTools(tools, { workspaces: c.workspaces, shares: c.shares }, origin);
  return tools;
}

/** An MCP server acting for one authenticated account: the tools, resources and prompts. */
export function createMcpServer(c: McpServices, auth: AuthContext | AuthSource, opts: McpServerOptions): McpServer {
  const authSource: AuthSource = typeof auth === 'function' ? auth : () => Promise.resolve(auth);
  const server = new McpServer({ name: 'sheet-workspace', title: 'Sheet Workspace', version: pkg.version }, { instructions: INSTRUCTIONS });
  buildToolRegistry(c, opts.origin).install(server, authSource, opts.logger, typeof auth === 'function' ? opts.scopes : auth.scopes, profileTools(opts.profile));
  // Each resource and prompt checks the scopes of what it reads (RESOURCE_SCOPES in src/auth/scopes.ts).
  registerResources(server, { sheets: c.sheets, sessions: c.sessions }, authSource);
  registerPrompts(server, { sessions: c.sessions, todos: c.todos }, authSource);
  return server;
}
