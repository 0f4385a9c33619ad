import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient } from '../mcp-helpers.js';
import { DEEP_HTML, HUGE, LONE, NUL, deepJunk, typeOf, validValue, wrongTypes, type Schema } from '../fuzz-helpers.js';

/**
 * Issue 16, point 12: every tool in tools/list gets generated bad arguments (wrong types, missing
 * required ones, NUL, lone surrogates, huge strings, nested junk). The answer is never an internal
 * error: always a tool error with a 4xx status naming the argument (or, for a value that is merely
 * odd but allowed, a normal result).
 */
interface Outcome {
  ok: boolean;
  status?: number;
  code?: string;
  error?: string;
}

function outcome(r: CallToolResult): Outcome {
  if (!r.isError) return { ok: true };
  const text = (r.content[0] as { text: string }).text;
  const body = JSON.parse(text);
  return { ok: false, status: body.status, code: body.code, error: body.error };
}

for (const dialect of dialects()) {
  describe(`MCP fuzz: every tool, bad arguments [${dialect}]`, () => {
    let mcp: Client;
    let tools: { name: string; inputSchema: Schema }[];
    const { s, beforeClose } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
    before(async () => {
      const u = await s.user('business');
      mcp = await httpClient(s, u.key);
      tools = (await mcp.listTools()).tools as never;
    });
    beforeClose(() => mcp?.close());

    const call = async (name: string, args: unknown) => outcome((await mcp.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult);

    it('lists the tools', () => {
      assert.ok(tools.length >= 40, `${tools.length} tools`);
    });

    it('never answers with an internal error, and names the argument it refuses', async () => {
      const failures: string[] = [];
      // `arg`: the argument the refusal must name; a list when any of them will do (all required ones missing).
      const check = (tool: string, what: string, arg: string | string[] | undefined, o: Outcome, mayPass: boolean) => {
        const label = `${tool} ${what}${arg ? ` (${arg})` : ''}`;
        if (o.ok) {
          if (!mayPass) failures.push(`${label}: accepted`);
          return;
        }
        if (!o.status || o.status >= 500) return failures.push(`${label}: ${o.status} ${o.code} ${o.error}`);
        const names = typeof arg === 'string' ? [arg] : (arg ?? []);
        if (names.length && o.code === 'invalid_request' && !names.some((n) => new RegExp(`(^|[^a-z_])${n}([^a-z_]|$)`).test(o.error!))) {
          failures.push(`${label}: message does not name it: ${o.error}`);
        }
      };

      for (const tool of tools) {
        const props = tool.inputSchema.properties ?? {};
        const required = tool.inputSchema.required ?? [];
        const base: Record<string, unknown> = {};
        for (const r of required) base[r] = validValue(props[r], r);

        const cases: { what: string; arg?: string | string[]; args: unknown; mayPass: boolean }[] = [];
        if (required.length) cases.push({ what: 'no arguments', arg: required, args: {}, mayPass: false });
        cases.push({ what: 'unknown argument with NUL', arg: 'zz_extra', args: { ...base, zz_extra: NUL }, mayPass: false });
        cases.push({ what: 'nested junk as an unknown argument', args: { ...base, zz_junk: deepJunk(200, '\u0000') }, mayPass: false });
        for (const [name, p] of Object.entries(props)) {
          for (const v of wrongTypes(p)) cases.push({ what: `wrong type ${JSON.stringify(v).slice(0, 20)}`, arg: name, args: { ...base, [name]: v }, mayPass: false });
          const t = typeOf(p);
          if (t === 'string' || t === 'enum') {
            cases.push({ what: 'NUL', arg: name, args: { ...base, [name]: NUL }, mayPass: false });
            cases.push({ what: 'lone surrogate', arg: name, args: { ...base, [name]: LONE }, mayPass: false });
            cases.push({ what: 'huge string', arg: name, args: { ...base, [name]: HUGE }, mayPass: true });
            cases.push({ what: 'deeply nested HTML', arg: name, args: { ...base, [name]: DEEP_HTML }, mayPass: true });
          }
          if (t === 'array') cases.push({ what: 'array of NUL', arg: name, args: { ...base, [name]: [NUL] }, mayPass: false });
          if (t === 'object') cases.push({ what: 'object of lone surrogates', arg: name, args: { ...base, [name]: { col1: LONE } }, mayPass: false });
          if (t === 'object') cases.push({ what: 'object of deeply nested HTML', arg: name, args: { ...base, [name]: { col1: DEEP_HTML } }, mayPass: name !== 'content' });
          cases.push({ what: 'nested junk', arg: name, args: { ...base, [name]: deepJunk(50, '\u0000') }, mayPass: false });
        }
        const results = await Promise.all(cases.map((c) => call(tool.name, c.args)));
        cases.forEach((c, i) => check(tool.name, c.what, c.arg, results[i], c.mayPass));
      }
      assert.deepEqual(failures, []);
    });

    it('still answers normally afterwards', async () => {
      const r = await call('list_sheets', {});
      assert.equal(r.ok, true);
    });
  });
}
