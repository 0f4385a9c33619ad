import { pino, type Logger } from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createContainer } from '../container.js';
import { MCP_PATH } from '../mcp/http.js';
import { createMcpServer } from '../mcp/server.js';

/**
 * `sheet-workspace mcp`: MCP over stdin/stdout for one API key (SHEET_WORKSPACE_API_KEY).
 * With SHEET_WORKSPACE_URL it relays to that server's /mcp; otherwise it opens the database the
 * environment names, as `serve` would. stdout carries only the protocol; logs go to stderr.
 */
export async function runStdioMcp(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const key = env.SHEET_WORKSPACE_API_KEY?.trim();
  if (!key) throw new ConfigError('SHEET_WORKSPACE_API_KEY is required: the API key (sk_...) the MCP server acts for');
  const remote = env.SHEET_WORKSPACE_URL?.trim();
  if (remote) return relay(mcpUrl(remote), key, stderrLogger(env.LOG_LEVEL ?? 'info'));

  const config = loadConfig(env);
  const logger = stderrLogger(config.logLevel);
  const c = await createContainer(config, { logger });
  const header = `Bearer ${key}`;
  const { scopes } = await c.apiKeys.authenticate(header); // a bad key fails at start, with the REST message
  // Re-checked on every call, so a key disabled meanwhile stops working at once, as on REST.
  const server = createMcpServer(c, () => c.apiKeys.authenticate(header), { logger, origin: localOrigin(config), scopes });
  const transport = new StdioServerTransport();
  transport.onclose = () => void c.close();
  await server.connect(transport);
  logger.info({ database: c.database.dialect }, 'Sheet Workspace MCP server on stdio (local database)');
}

/**
 * Export links made over stdio point where `serve` with the same environment answers (PUBLIC_URL, else
 * HOST:PORT), since that server, not this process, serves the downloads from the shared database.
 */
export function localOrigin(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** Accepts the server's base URL with or without /v1 or /mcp. */
export function mcpUrl(base: string): URL {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    throw new ConfigError('SHEET_WORKSPACE_URL must be an absolute URL such as http://127.0.0.1:8787');
  }
  u.pathname = u.pathname.replace(/\/+$/, '').replace(/\/(v1|mcp)$/, '') + MCP_PATH;
  return u;
}

/** Passes JSON-RPC messages between stdio and the remote /mcp unchanged. */
async function relay(url: URL, key: string, logger: Logger): Promise<void> {
  const local = new StdioServerTransport();
  const upstream = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const pendingInit = new Set<string | number>();

  local.onmessage = (msg: JSONRPCMessage) => {
    if ('method' in msg && msg.method === 'initialize' && 'id' in msg) pendingInit.add(msg.id);
    upstream.send(msg).catch((err: Error) => {
      logger.error({ err: err.message }, 'relay to server failed');
      if ('id' in msg && 'method' in msg) {
        void local.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: `Sheet Workspace server at ${url.origin}: ${err.message}` } });
      }
    });
  };
  upstream.onmessage = (msg: JSONRPCMessage) => {
    if ('result' in msg && pendingInit.delete(msg.id)) {
      const version = (msg.result as { protocolVersion?: string }).protocolVersion;
      if (version) upstream.setProtocolVersion(version);
    }
    void local.send(msg);
  };
  upstream.onerror = (err) => logger.warn({ err: err.message }, 'server connection error');
  local.onclose = () => void upstream.close();

  await upstream.start();
  await local.start();
  logger.info({ url: url.href }, 'Sheet Workspace MCP relay on stdio');
}

function stderrLogger(level: string): Logger {
  return pino({ level }, pino.destination(2));
}
