import pkg from '../../package.json' with { type: 'json' };
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from 'pino';
import type { Container } from '../container.js';
import type { AuthContext } from '../modules/api-keys/api-keys.service.js';
import { requireScope } from '../modules/api-keys/scopes.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { ToolRegistry, type AuthSource } from './tool.js';
import { registerExportTools } from './tools/exports.js';
import { registerKnowledgeTools } from './tools/knowledge.js';
import { registerSessionTools } from './tools/sessions.js';
import { registerBriefingTools } from './tools/briefing.js';
import { registerSheetTools } from './tools/sheets.js';
import { registerSheetContentTools } from './tools/sheet-content.js';
import { registerSparkTools } from './tools/sparks.js';
import { registerWebhookTools } from './tools/webhooks.js';
import { registerStatsTools } from './tools/stats.js';
import { registerTodoTools } from './tools/todos.js';

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
}

/** Registers every tool with the same zod schemas and services as REST. */
export function buildToolRegistry(c: Container, origin: string): ToolRegistry {
  const tools = new ToolRegistry(c.config.mcpResultMaxChars, c.idempotency);
  registerSheetTools(tools, c);
  registerSheetContentTools(tools, c);
  registerExportTools(tools, c, origin);
  registerSessionTools(tools, c);
  registerBriefingTools(tools, c);
  registerKnowledgeTools(tools, c);
  registerTodoTools(tools, c);
  registerStatsTools(tools, c);
  registerSparkTools(tools, c);
  registerWebhookTools(tools, c);
  return tools;
}

/** Resources and prompts read sheets and sessions: a credential without that scope gets an error instead. */
const scopedAuth = (auth: AuthSource, scope: string): AuthSource => async () => {
  const caller = await auth();
  requireScope(caller.scopes, scope);
  return caller;
};

/** An MCP server acting for one authenticated account: the tools, resources and prompts. */
export function createMcpServer(c: Container, auth: AuthContext | AuthSource, opts: McpServerOptions): McpServer {
  const authSource: AuthSource = typeof auth === 'function' ? auth : () => Promise.resolve(auth);
  const server = new McpServer({ name: 'sheet-workspace', title: 'Sheet Workspace', version: pkg.version }, { instructions: INSTRUCTIONS });
  buildToolRegistry(c, opts.origin).install(server, authSource, opts.logger, typeof auth === 'function' ? opts.scopes : auth.scopes);
  registerResources(server, c, scopedAuth(authSource, 'sheets:read'));
  registerPrompts(server, c, scopedAuth(authSource, 'sessions:read'));
  return server;
}
