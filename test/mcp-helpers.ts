import path from 'node:path';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from './helpers.js';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const BIN = path.join(ROOT, 'bin', 'sheet-workspace.js');

/** The SDK's own client over Streamable HTTP to the test server's /mcp. */
export async function httpClient(s: Pick<TestServer, 'url'>, key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

/** The real `sheet-workspace mcp` command, spawned as an MCP host would. stderr is collected for assertions. */
export async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: ROOT,
    env: { ...getDefaultEnvironment(), LOG_LEVEL: 'info', BOOTSTRAP_OWNER: '0', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

/** Environment naming the same database as the test server. */
export function dbEnv(s: TestServer): Record<string, string> {
  return s.c.config.databaseUrl ? { DATABASE_URL: s.c.config.databaseUrl, DATA_DIR: s.dataDir } : { DATA_DIR: s.dataDir };
}

/** A successful tool result: structuredContent, which the JSON text must equal. */
export function ok(r: unknown): any {
  const res = r as CallToolResult;
  assert.notEqual(res.isError, true, `tool failed: ${JSON.stringify(res.content)}`);
  const text = res.content[0];
  assert.equal(text.type, 'text');
  assert.deepEqual(JSON.parse((text as { text: string }).text), res.structuredContent);
  return res.structuredContent;
}

/** A tool error: the REST error body plus status, as JSON text. */
export function toolError(r: unknown, status: number, code: string): { error: string } {
  const res = r as CallToolResult;
  assert.equal(res.isError, true, `expected a tool error, got ${JSON.stringify(res.structuredContent ?? res.content)}`);
  const body = JSON.parse((res.content[0] as { text: string }).text);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'status', 'success']);
  assert.equal(body.success, false);
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  return body;
}

/** Same tool error as a REST error response: status, code and the exact message. */
export function sameErrorAsRest(r: unknown, rest: { status: number; body: { code: string; error: string } }) {
  const body = toolError(r, rest.status, rest.body.code);
  assert.equal(body.error, rest.body.error);
}

/** Object with the given keys dropped, to compare a REST-made and an MCP-made record. */
export function without<T extends Record<string, unknown>>(o: T, ...keys: string[]): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k))) as Partial<T>;
}

/**
 * A tool result held to MCP_RESULT_MAX_CHARS (`budget`): every text part, and the structuredContent a
 * successful result must carry, are at most `budget` characters; an error result carries only text.
 */
export function withinBudget(budget: number, name: string, r: unknown) {
  const res = r as CallToolResult;
  assert.ok(res.content.length > 0, `${name}: no content`);
  for (const part of res.content) {
    if (part.type !== 'text') assert.fail(`${name}: a ${part.type} part`);
    assert.ok(part.text.length <= budget, `${name}: text of ${part.text.length} characters, budget ${budget}`);
  }
  if (res.isError) return;
  assert.ok(res.structuredContent, `${name}: no structuredContent`);
  const structured = JSON.stringify(res.structuredContent).length;
  assert.ok(structured <= budget, `${name}: structuredContent of ${structured} characters, budget ${budget}`);
}
