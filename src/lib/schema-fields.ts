import { z } from 'zod';
import { WORKSPACE_ID } from './workspace-ids.js';

/**
 * Field shapes the module schemas share (REST bodies and queries, MCP tool inputs, OpenAPI). The
 * HTTP-only shapes (error bodies, response maps, conditional headers) are in src/http.
 */

export const IdParams = z.object({ id: z.string().min(1).max(100) });

/** Non-negative integer query value; rejects "-1", "1.5", "abc" with a 400 naming the field. */
export const queryInt = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a non-negative integer`)
    .transform(Number);

export const Timestamp = z.string().describe('ISO 8601 UTC timestamp');
export const Tags = z.array(z.string().max(100)).max(100);

export const queryBool = (name: string) => z.enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` }).transform((v) => v === 'true' || v === '1');

/** `expected_version` in a JSON body, for clients that cannot set headers. */
export const expectedVersionField = z.number().int().min(1).optional().describe('Write only if the record is at this version (same as If-Match); otherwise 412 version_conflict');

/**
 * `workspace_id` on a create body or a list query: the workspace the record goes into or the list reads
 * (default: the key's workspace when it is restricted to one, else the caller's personal workspace).
 */
export const WorkspaceIdInput = z
  .string()
  .regex(WORKSPACE_ID, 'workspace_id must be a workspace id (wsp_...), as GET /v1/workspaces lists them')
  .optional()
  .describe('The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to)');

/** `workspace_id` on a by-id call: the workspace the record (`what`: 'sheet', 'task', ...) must be in; elsewhere it is a 403. */
export const recordInWorkspace = (what: string) => WorkspaceIdInput.describe(`Optional: the workspace (wsp_...) the ${what} must be in; omitted: whichever of your workspaces holds it.`);

/** `workspace_id` on a record's view: the workspace it is in. */
export const WorkspaceIdView = z.string().describe('The workspace (wsp_...) this record is in');
