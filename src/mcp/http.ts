import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Container } from '../container.js';
import { requireApiKey } from '../http/auth.js';
import { sendError } from '../http/errors.js';
import { publicOrigin } from '../modules/exports/exports.routes.js';
import { resourceMetadataUrl } from '../modules/oauth/oauth.routes.js';
import { accessTokenAuth } from '../modules/oauth/oauth.service.js';

export const MCP_PATH = '/mcp';
const BATCH_REFUSED =
  'JSON-RPC batches are not supported by this server (MCP 2025-06-18 has no batching): send one message per POST /mcp';

/** The MCP SDK and our tools load on the first POST /mcp, not at start (~200 ms and memory saved). */
let mcpModules: Promise<[typeof import('./server.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | undefined;
const loadMcp = () => (mcpModules ??= Promise.all([import('./server.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

/**
 * Streamable HTTP at /mcp, stateless: every POST gets its own server and transport for the key's
 * account, so any process behind a load balancer can answer any request. Auth (and whatever the
 * auth scope adds, such as rate limits) is the same as on /v1.
 */
export async function registerMcpRoutes(app: FastifyInstance, c: Container): Promise<void> {
  await app.register(async (scope) => {
    requireApiKey(scope, c.apiKeys, undefined, accessTokenAuth(c.oauth));
    // Tells an MCP client where to start the OAuth flow (RFC 9728 section 5.1).
    scope.addHook('onSend', async (req, reply) => {
      if (reply.statusCode === 401) reply.header('www-authenticate', `Bearer resource_metadata="${resourceMetadataUrl(c.config.publicUrl, req)}"`);
    });

    scope.post(MCP_PATH, { schema: { hide: true } }, async (req, reply) => {
      // One POST is one message, so one call counts once against the plan limit. A batch would
      // let one request run any number of tools; MCP 2025-06-18 removed batching, so refuse it.
      if (Array.isArray(req.body)) {
        return reply.code(400).send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: BATCH_REFUSED } });
      }
      const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await loadMcp();
      const server = createMcpServer(c, req.auth, { logger: req.log as never, origin: publicOrigin(c.config.publicUrl, req) });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      handOver(reply);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    });

    // Stateless: no server-initiated stream to GET and no session to DELETE.
    const notAllowed = async (_req: unknown, reply: FastifyReply) => {
      reply.header('allow', 'POST');
      return sendError(reply, 'method_not_allowed', 'This MCP endpoint is stateless: send JSON-RPC messages with POST /mcp');
    };
    scope.get(MCP_PATH, { schema: { hide: true } }, notAllowed);
    scope.delete(MCP_PATH, { schema: { hide: true } }, notAllowed);
  });
}

/** The transport writes to the raw response; headers set so far by hooks (rate-limit state) go with it. */
function handOver(reply: FastifyReply) {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
  }
  reply.hijack();
}
