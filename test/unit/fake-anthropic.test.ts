import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { requestText, startFakeAnthropic, toolResults, type FakeAnthropic } from '../fake-anthropic.js';

/**
 * The stand-in for the Messages API that the Claude Code end-to-end tests run the real CLI against:
 * read through the official SDK, so its SSE events and JSON are the real wire format.
 */
describe('fake Messages API', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  const tools = [{ name: 'Write', description: 'write a file', input_schema: { type: 'object' as const, properties: {} } }];

  before(async () => {
    fake = await startFakeAnthropic();
    client = new Anthropic({ baseURL: fake.url, apiKey: 'dummy', maxRetries: 0 });
  });
  after(() => fake.close());

  it('streams a scripted turn of text and tool_use blocks that the SDK assembles', async () => {
    fake.script([
      { type: 'text', text: 'Writing it.' },
      { type: 'tool_use', name: 'Write', input: { file_path: '/tmp/a.ts', content: 'export const a = "ü";\n' } },
    ]);
    const stream = client.messages.stream({ model: 'claude-x', max_tokens: 100, tools, messages: [{ role: 'user', content: 'go' }] });
    const msg = await stream.finalMessage();
    assert.equal(msg.stop_reason, 'tool_use');
    assert.equal(msg.content[0].type === 'text' && msg.content[0].text, 'Writing it.');
    const use = msg.content[1];
    assert.ok(use.type === 'tool_use');
    assert.equal(use.name, 'Write');
    assert.deepEqual(use.input, { file_path: '/tmp/a.ts', content: 'export const a = "ü";\n' });
    assert.match(use.id, /^toolu_/);
  });

  it('answers without stream as one JSON message, and an empty script with end_turn text', async () => {
    const msg = await client.messages.create({ model: 'claude-x', max_tokens: 100, tools, messages: [{ role: 'user', content: 'again' }] });
    assert.equal(msg.stop_reason, 'end_turn');
    assert.deepEqual(msg.content, [{ type: 'text', text: 'Done.' }]);
  });

  it('answers side calls (no tools) and compaction without consuming the script', async () => {
    fake.script([{ type: 'text', text: 'the scripted turn' }]);
    const title = await client.messages.create({ model: 'claude-haiku', max_tokens: 50, messages: [{ role: 'user', content: 'title this' }] });
    assert.deepEqual(title.content, [{ type: 'text', text: fake.reply }]);
    const compact = await client.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      tools,
      messages: [{ role: 'user', content: 'Your task is to create a detailed summary of the conversation so far.' }],
    });
    assert.match(compact.content[0].type === 'text' ? compact.content[0].text : '', /<summary>Scripted compaction summary\.<\/summary>/);
    const main = await client.messages.create({ model: 'claude-x', max_tokens: 100, tools, messages: [{ role: 'user', content: 'now' }] });
    assert.deepEqual(main.content, [{ type: 'text', text: 'the scripted turn' }]);
    assert.deepEqual(
      fake.requests.slice(-3).map((r) => r.main),
      [false, false, true],
    );
  });

  it('records what it was sent: system text, messages and tool results', async () => {
    await client.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      tools,
      system: [{ type: 'text', text: 'SYSTEM-MARK' }],
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'written' }] }] },
      ],
    });
    const last = fake.requests.at(-1)!;
    assert.equal(last.method, 'POST');
    assert.match(requestText(last.body), /SYSTEM-MARK[\s\S]*first/);
    assert.deepEqual(toolResults(last.body).get('toolu_1'), { content: 'written', is_error: false });
  });

  it('counts tokens and refuses unknown routes with the API error shape', async () => {
    const count = await client.messages.countTokens({ model: 'claude-x', messages: [{ role: 'user', content: 'hello there' }] });
    assert.ok(count.input_tokens > 0);
    const res = await fetch(`${fake.url}/v1/nothing`, { method: 'POST' });
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.type, 'not_found_error');
  });
});
