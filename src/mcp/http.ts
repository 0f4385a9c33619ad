import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { McpServices } from './server.js';
import { requestedProfile } from './profiles.js';

export const MCP_PATH = '/mcp';
const BATCH_REFUSED = 'JSON-RPC batches are not supported by this server (MCP 2025-06-18 has no batching): send one message per POST /mcp';

/** The MCP SDK and our tools load on the first POST /mcp, not at start (~200 ms and memory saved). */
let mcpModules: Promise<[typeof import('./server.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | undefined;
const loadMcp = () => (mcpModules ??= Promise.all([import('./server.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

export interface McpEndpointOptions {
  /** Public origin of the export links a tool makes in this request (REST's requestOrigin). */
  origin: (req: FastifyRequest) => string;
}

/**
 * Streamable HTTP at /mcp, stateless: every POST gets its own server and transport for the key's
 * account, so any process behind a load balancer can answer any request. `scope` authenticates the
 * caller (req.auth) as /v1 does, with whatever that adds, such as rate limits (src/app.ts wires it).
 */
export function registerMcpEndpoint(scope: FastifyInstance, services: McpServices, opts: McpEndpointOptions): void {
  scope.post(MCP_PATH, { schema: { hide: true } }, async (req, reply) => {
    // One POST is one message, so one call counts once against the plan limit. A batch would
    // let one request run any number of tools; MCP 2025-06-18 removed batching, so refuse it.
    if (Array.isArray(req.body)) {
      return reply.code(400).send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: BATCH_REFUSED } });
    }
    const profile = requestedProfile(req.query, req.headers['x-mcp-profile']);
    const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await loadMcp();
    const server = createMcpServer(services, req.auth, { logger: req.log as never, origin: opts.origin(req), profile });
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
  const notAllowed = async () => {
    throw new AppError('method_not_allowed', 'This MCP endpoint is stateless: send JSON-RPC messages with POST /mcp', { allow: 'POST' });
  };
  scope.get(MCP_PATH, { schema: { hide: true } }, notAllowed);
  scope.delete(MCP_PATH, { schema: { hide: true } }, notAllowed);
}

/** The transport writes to the raw response; headers set so far by hooks (rate-limit state) go with it. */
function handOver(reply: FastifyReply) {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
  }
  reply.hijack();
}
