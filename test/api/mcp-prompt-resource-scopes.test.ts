import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dialects, startServer, type TestServer } from '../helpers.js';
import { httpClient } from '../mcp-helpers.js';

/**
 * Security round 3, finding 7: MCP prompts and resources need the scopes of the REST routes that read
 * the same records (resume_work showed todos to a key holding sessions:read only; the sheet resource
 * answered a key without sheets:read).
 */
for (const dialect of dialects()) {
  describe(`MCP prompts and resources need their REST scopes [${dialect}]`, () => {
    let s: TestServer;
    let owner: { key: string };
    let sheetId: string;
    const clients: Client[] = [];

    before(async () => {
      s = await startServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
      owner = await s.user('pro');
      const sheet = await s.req('POST', '/v1/sheets', { key: owner.key, body: { title: 'Plan', content: { col1: '<p>secret plan</p>' } } });
      sheetId = sheet.body.id;
      const session = await s.req('POST', '/v1/sessions', { key: owner.key, body: { title: 'Work', summary: 'did things', project: 'shop' } });
      assert.equal(session.status, 200, JSON.stringify(session.body));
      const handover = await s.req('POST', '/v1/sessions/handover', { key: owner.key, body: { session_id: session.body.id, next_steps: ['ship'] } });
      assert.equal(handover.status, 200, JSON.stringify(handover.body));
      const todo = await s.req('POST', '/v1/todos', { key: owner.key, body: { project: 'shop', todos: [{ content: 'private todo text', status: 'pending' }] } });
      assert.equal(todo.status, 200, JSON.stringify(todo.body));
    });
    after(async () => {
      for (const c of clients) await c.close().catch(() => {});
      await s?.close();
    });

    async function clientWith(scopes: string[]): Promise<Client> {
      const key = await s.req('POST', '/v1/api-keys', { key: owner.key, body: { name: scopes.join(' '), scopes } });
      assert.equal(key.status, 200, JSON.stringify(key.body));
      const c = await httpClient(s, key.body.api_key);
      clients.push(c);
      return c;
    }

    it('resume_work needs sessions:read and todos:read', async () => {
      const sessionsOnly = await clientWith(['sessions:read']);
      await assert.rejects(sessionsOnly.getPrompt({ name: 'resume_work', arguments: { project: 'shop' } }), /todos:read/);
      const todosOnly = await clientWith(['todos:read']);
      await assert.rejects(todosOnly.getPrompt({ name: 'resume_work', arguments: { project: 'shop' } }), /sessions:read/);
      const both = await clientWith(['sessions:read', 'todos:read']);
      const prompt = await both.getPrompt({ name: 'resume_work', arguments: { project: 'shop' } });
      const text = (prompt.messages[0]!.content as { text: string }).text;
      assert.match(text, /private todo text/);
      assert.match(text, /ship/);
    });

    it('the sheet resource and its listing need sheets:read', async () => {
      const sessionsOnly = await clientWith(['sessions:read']);
      await assert.rejects(sessionsOnly.readResource({ uri: `sheet://${sheetId}` }), /sheets:read/);
      await assert.rejects(sessionsOnly.listResources(), /sheets:read/);
      const reader = await clientWith(['sheets:read']);
      const read = await reader.readResource({ uri: `sheet://${sheetId}` });
      assert.match(String((read.contents[0] as { text: string }).text), /secret plan/);
      assert.ok((await reader.listResources()).resources.some((r) => r.uri === `sheet://${sheetId}`));
    });

    it('the latest-handover resource needs sessions:read', async () => {
      const sheetsOnly = await clientWith(['sheets:read']);
      await assert.rejects(sheetsOnly.readResource({ uri: 'handover://shop/latest' }), /sessions:read/);
      const reader = await clientWith(['sessions:read']);
      const read = await reader.readResource({ uri: 'handover://shop/latest' });
      assert.match(String((read.contents[0] as { text: string }).text), /handover_id/);
    });
  });
}
