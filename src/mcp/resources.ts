import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Container } from '../container.js';
import { AppError } from '../errors.js';
import type { AuthSource } from './tool.js';

/** Resource reads have no tool-error form: a REST error becomes a JSON-RPC error with the same message. */
export async function asResource(uri: URL, read: () => Promise<unknown>): Promise<ReadResourceResult> {
  try {
    const value = await read();
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] };
  } catch (err) {
    if (err instanceof AppError) {
      // -32002 is the spec's "resource not found".
      const code = err.code === 'not_found' ? -32002 : ErrorCode.InvalidParams;
      throw new McpError(code, err.message, { code: err.code, status: err.status });
    }
    throw err;
  }
}

const RESOURCE_LIST_MAX = 100;

export function registerResources(server: McpServer, c: Container, auth: AuthSource): void {
  server.registerResource(
    'sheet',
    new ResourceTemplate('sheet://{id}', {
      list: async () => {
        const { userId } = await auth();
        const { sheets } = await c.sheets.list(userId, { limit: RESOURCE_LIST_MAX });
        return { resources: sheets.map((s) => ({ uri: `sheet://${s.id}`, name: s.title, mimeType: 'application/json' })) };
      },
    }),
    {
      title: 'Sheet',
      description: `One sheet as JSON (id, title, content columns, folder, tags, timestamps). The list shows the ${RESOURCE_LIST_MAX} newest; use the search_sheets tool for the rest.`,
      mimeType: 'application/json',
    },
    (uri, { id }) =>
      asResource(uri, async () => {
        const { userId } = await auth();
        return c.sheets.get(userId, decodeURIComponent(String(id)));
      }),
  );

  server.registerResource(
    'latest_handover',
    new ResourceTemplate('handover://{project}/latest', { list: undefined }),
    {
      title: 'Latest handover of a project',
      description:
        'The newest (not trashed) handover sheet of a project as JSON {handover_id, session_id, sheet}; the project name is URL-encoded, e.g. handover://my%20app/latest.',
      mimeType: 'application/json',
    },
    (uri, { project }) =>
      asResource(uri, async () => {
        const { userId } = await auth();
        return c.sessions.latestHandover(userId, decodeURIComponent(String(project)));
      }),
  );
}
