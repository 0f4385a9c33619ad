import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListResourcesRequestSchema, McpError, ReadResourceRequestSchema, type ListResourcesResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../errors.js';
import { describeBadText, findBadText } from '../lib/bad-text.js';
import type { SessionsService } from '../modules/sessions/sessions.service.js';
import type { SheetsService } from '../modules/sheets/sheets.service.js';
import { RESOURCE_SCOPES, requireScopes } from '../auth/scopes.js';
import type { AuthSource } from './tool.js';

/** Resources have no tool-error form: a REST error becomes a JSON-RPC error with the same message. */
async function orMcpError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError) {
      // -32002 is the spec's "resource not found".
      const code = err.code === 'not_found' ? -32002 : ErrorCode.InvalidParams;
      throw new McpError(code, err.message, { code: err.code, status: err.status });
    }
    throw err;
  }
}

export function asResource(uri: URL, read: () => Promise<unknown>): Promise<ReadResourceResult> {
  return orMcpError(async () => {
    const value = await read();
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] };
  });
}

const invalidParams = (message: string) => new McpError(ErrorCode.InvalidParams, message, { code: 'invalid_request', status: 400 });

/**
 * A URI variable as text, refused like a REST path parameter when it holds NUL or a lone surrogate (as
 * %00, or as a broken UTF-8 escape such as %ED%A0%80, which is how a lone surrogate is percent-encoded)
 * instead of reaching the database, where PostgreSQL fails on NUL.
 */
function uriPart(name: string, raw: unknown): string {
  let value: string;
  try {
    value = decodeURIComponent(String(raw));
  } catch {
    throw invalidParams(`URI part '${name}' is not valid percent-encoded UTF-8 (a broken escape or an encoded lone surrogate); text must be valid Unicode without NUL`);
  }
  const bad = findBadText({ [name]: value });
  if (bad) throw invalidParams(describeBadText(bad, 'URI part'));
  return value;
}

type Reader = (uri: URL, variables: Record<string, string | string[]>) => Promise<ReadResourceResult>;

/**
 * resources/read ahead of the SDK's own, which parses the URI with `new URL` first: that fails on a raw
 * NUL (an internal error) and turns a raw lone surrogate into U+FFFD (a silent replacement). The raw
 * URI is checked here, then matched against the same templates.
 */
async function readResource(templates: { template: ResourceTemplate; read: Reader }[], rawUri: string): Promise<ReadResourceResult> {
  const bad = findBadText({ uri: rawUri });
  if (bad) throw invalidParams(describeBadText(bad, 'parameter'));
  let uri: URL;
  try {
    uri = new URL(rawUri);
  } catch {
    throw invalidParams(`uri ${JSON.stringify(rawUri.slice(0, 200))} is not a valid URI`);
  }
  for (const { template, read } of templates) {
    const variables = template.uriTemplate.match(uri.toString());
    if (variables) return read(uri, variables);
  }
  throw invalidParams(`Resource ${uri} not found`);
}

/** Sheets per resources/list page. */
export const RESOURCE_PAGE_SIZE = 100;

/**
 * The cursor is the offset of the next page, wrapped so clients treat it as opaque. Offsets, because
 * that is how sheets page on REST too; a sheet created between two pages shifts the rest by one.
 */
const encodeCursor = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString('base64url');
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0) return offset;
  } catch {
    /* falls through to the error below */
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of the previous resources/list answer unchanged');
}

/** The caller, when its credential holds every scope of `required` (else insufficient_scope, as REST answers). */
async function scopedCaller(auth: AuthSource, required: readonly string[]) {
  const caller = await auth();
  requireScopes(caller.scopes, required);
  return caller;
}

/** resources/list: the caller's active sheets, newest first, a page at a time (the SDK's own listing drops nextCursor). */
function listSheets(sheetsService: SheetsService, auth: AuthSource, cursor: string | undefined): Promise<ListResourcesResult> {
  const offset = decodeCursor(cursor);
  return orMcpError(async () => {
    const { sheets, total } = await sheetsService.list(await scopedCaller(auth, RESOURCE_SCOPES.sheet), { limit: RESOURCE_PAGE_SIZE, offset });
    const next = offset + sheets.length;
    return {
      // Without fields= every item has its title; the list type allows picked fields, hence the fallback.
      resources: sheets.map((s) => ({ uri: `sheet://${s.id}`, name: s.title ?? s.id, mimeType: 'application/json' })),
      ...(sheets.length > 0 && next < total ? { nextCursor: encodeCursor(next) } : {}),
    };
  });
}

/** The services the resources read. */
export interface ResourceDeps {
  sheets: SheetsService;
  sessions: SessionsService;
}

export function registerResources(server: McpServer, deps: ResourceDeps, auth: AuthSource): void {
  const templates: { template: ResourceTemplate; read: Reader }[] = [];
  const register = (name: string, template: ResourceTemplate, meta: Parameters<McpServer['registerResource']>[2], read: Reader) => {
    templates.push({ template, read });
    server.registerResource(name, template, meta, read);
  };

  register(
    'sheet',
    new ResourceTemplate('sheet://{id}', { list: undefined }), // listed by listSheets below
    {
      title: 'Sheet',
      description: `One sheet as JSON (id, title, content columns, folder, tags, timestamps). resources/list pages through the active sheets, newest first, ${RESOURCE_PAGE_SIZE} at a time (follow nextCursor); search_sheets finds them by words.`,
      mimeType: 'application/json',
    },
    (uri, { id }) =>
      asResource(uri, async () => {
        return deps.sheets.get(await scopedCaller(auth, RESOURCE_SCOPES.sheet), uriPart('id', id));
      }),
  );

  const latestHandover = (uri: URL, project: string) =>
    asResource(uri, async () => {
      return deps.sessions.latestHandover(await scopedCaller(auth, RESOURCE_SCOPES.handover), project);
    });
  register(
    'latest_handover',
    new ResourceTemplate('handover://{project}/latest', { list: undefined }),
    {
      title: 'Latest handover of a project',
      description:
        'The newest (not trashed) handover sheet of a project as JSON {handover_id, session_id, sheet}; the project name is URL-encoded, ' +
        'e.g. handover://my%20app/latest. Sessions saved without a project: handover:///latest.',
      mimeType: 'application/json',
    },
    (uri, { project }) => latestHandover(uri, uriPart('project', project)),
  );
  // The empty project, as get_latest_handover takes it ({project} cannot match an empty host).
  register(
    'latest_handover_no_project',
    new ResourceTemplate('handover:///latest', { list: undefined }),
    {
      title: 'Latest handover of sessions without a project',
      description: 'The newest (not trashed) handover sheet made from a session saved without a project, as JSON {handover_id, session_id, sheet}.',
      mimeType: 'application/json',
    },
    (uri) => latestHandover(uri, ''),
  );

  server.server.setRequestHandler(ListResourcesRequestSchema, (req) => listSheets(deps.sheets, auth, req.params?.cursor));
  server.server.setRequestHandler(ReadResourceRequestSchema, (req) => readResource(templates, req.params.uri));
}
