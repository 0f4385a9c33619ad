import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { memoryExport, memoryImport } from '../../src/cli/memory.js';
import { claudeProjectDir } from '../../src/cli/memory-files.js';
import type { Counts } from '../../src/cli/memory-import.js';

const PROJECT = 'acme-api';
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sw-memory-'));
const created = (c: Counts) => Object.values(c).reduce((n, t) => n + t.created + t.updated, 0);
/** The digest without what differs between accounts by nature: record ids and workspace ids in comments and the intro. */
const comparable = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('<!-- sw:'))
    .join('\n')
    .replace(/\b(wsp|usr)_[a-z0-9]+/g, 'WS');

for (const dialect of dialects()) {
  describe(`memory export / import [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { users: { alice: 'pro', bob: 'pro', carol: 'pro', dave: 'pro' } });
    const ok = async (method: string, p: string, key: string, body?: unknown) => {
      const r = await s.req(method, p, { key, body });
      assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const cli = (key: string) => ({ url: s.url, key, home: tmp() });
    /** What an account holds: every session, handover sheet, todo and knowledge entry of the project. */
    async function holdings(key: string) {
      const sessions = await ok('GET', `/v1/sessions?project=${PROJECT}&limit=100`, key);
      const todos = await ok('GET', `/v1/todos?project=${PROJECT}`, key);
      const knowledge = await ok('GET', '/v1/knowledge?limit=100', key);
      const sheets = await ok('GET', '/v1/sheets?limit=100', key);
      return { sessions: sessions.total, todos: todos.todos.length, knowledge: knowledge.total, sheets: sheets.total };
    }

    async function seed(key: string) {
      const s1 = await ok('PUT', '/v1/sessions/external/cc:first', key, {
        title: 'Parser rewrite',
        summary: 'Rewrote the parser.\nKept the old API.',
        project: PROJECT,
        files_changed: ['src/parser.ts', 'test/parser_spec.ts'],
        errors: [{ command: 'npm test -- parser', error: 'TypeError: cannot read properties of undefined (reading foo)' }],
        outcome: 'Parser passes except one flaky case',
        agent: 'claude-code',
      });
      await ok('POST', '/v1/knowledge?type=solutions', key, {
        title: 'Undefined foo in the parser',
        error: 'TypeError: cannot read properties of undefined (reading foo)',
        content: 'Guard the input:\n\n```ts\nif (!node) return;\n```',
      });
      await ok('POST', '/v1/sessions/handover', key, { session_id: s1.id, next_steps: ['Fix the flaky case', 'Ship 2.0'], notes: 'Watch the migration.\n\nIt locks the table.' });
      await ok('POST', '/v1/sessions', key, { title: 'Docs pass', summary: 'Docs for the parser', project: PROJECT, agent: 'codex', outcome: '> quoted line\nsecond' });
      await ok('POST', '/v1/todos', key, {
        project: PROJECT,
        todos: [
          { content: 'Write the changelog', status: 'pending' },
          { content: 'Refactor the lexer', status: 'in_progress', priority: 'high' },
          { content: 'Old task', status: 'completed' },
        ],
      });
      await ok('POST', '/v1/knowledge?type=snippets', key, { title: 'Build', content: 'npm run build', language: 'sh', description: 'Builds everything' });
    }

    it('exports a digest that round-trips into a fresh account; importing twice adds nothing', async () => {
      await seed(users.alice.key);
      const first = await memoryExport({ ...cli(users.alice.key), project: PROJECT });
      for (const part of [
        '### Latest handover: ',
        '1. Fix the flaky case',
        '> It locks the table.',
        '- src/parser.ts',
        '- $ npm test -- parser',
        '#### Docs pass',
        '> > quoted line',
        '- [~] Refactor the lexer (high priority)',
        '- [ ] Write the changelog',
        '#### Undefined foo in the parser',
        '#### Build',
      ]) {
        assert.ok(first.includes(part), `${part} in\n${first}`);
      }
      assert.ok(!first.includes('Old task'));
      assert.match(first, /^<!-- sheet-workspace:memory project="acme-api" start -->/);
      assert.match(first, /<!-- sheet-workspace:memory project="acme-api" end -->\n$/);

      const dir = tmp();
      fs.writeFileSync(path.join(dir, 'AGENTS.md'), first);
      const before = await holdings(users.bob.key);
      const one = await memoryImport([], { ...cli(users.bob.key), cwd: dir, project: PROJECT });
      assert.equal(one.counts.sessions.created, 2);
      assert.equal(one.counts.handovers.created, 1);
      assert.equal(one.counts.todos.created, 2);
      const afterOne = await holdings(users.bob.key);
      assert.deepEqual({ ...afterOne }, { sessions: before.sessions + 2, todos: before.todos + 2, knowledge: before.knowledge + 2, sheets: before.sheets + 1 });

      const second = await memoryExport({ ...cli(users.bob.key), project: PROJECT });
      assert.equal(comparable(second), comparable(first));

      const two = await memoryImport([], { ...cli(users.bob.key), cwd: dir, project: PROJECT });
      assert.equal(created(two.counts), 0, JSON.stringify(two.counts));
      assert.deepEqual(await holdings(users.bob.key), afterOne);

      // Into the account it came from: every record is recognised, nothing is added.
      const aliceBefore = await holdings(users.alice.key);
      const back = await memoryImport([path.join(dir, 'AGENTS.md')], { ...cli(users.alice.key), cwd: dir, project: PROJECT });
      assert.equal(back.counts.sessions.created + back.counts.handovers.created + back.counts.todos.created, 0, JSON.stringify(back.counts));
      assert.equal(created(back.counts), 0, JSON.stringify(back.counts));
      assert.deepEqual(await holdings(users.alice.key), aliceBefore);
    });

    // Uses the project the first test seeded in alice's account.
    it('--out replaces its section in an existing file; --max-chars bounds it', async () => {
      const dir = tmp();
      const file = path.join(dir, 'CLAUDE.md');
      fs.writeFileSync(file, '# House rules\n\nRun the linter.\n');
      await memoryExport({ ...cli(users.alice.key), project: PROJECT, file, cwd: dir });
      await ok('POST', '/v1/sessions', users.alice.key, { title: 'Later work', summary: 'more', project: PROJECT });
      await memoryExport({ ...cli(users.alice.key), project: PROJECT, file, cwd: dir });
      const text = fs.readFileSync(file, 'utf8');
      assert.equal(text.split('project="acme-api" start').length, 2);
      assert.ok(text.startsWith('# House rules\n\nRun the linter.\n\n<!-- sheet-workspace:memory'));
      assert.ok(text.includes('#### Later work'));

      for (let i = 0; i < 12; i++) await ok('POST', '/v1/sessions', users.alice.key, { title: `Session ${i}`, summary: 'x'.repeat(400), project: PROJECT });
      const small = await memoryExport({ ...cli(users.alice.key), project: PROJECT, maxChars: '1500' });
      assert.ok(small.length <= 1500, String(small.length));
      assert.match(small, /Left out to stay within 1500 characters: .*\d+ sessions/);
      assert.match(small, /end -->\n$/);
      await assert.rejects(memoryExport({ ...cli(users.alice.key), project: PROJECT, maxChars: '12x' }), /--max-chars must be a whole number/);

      // A key that may not read knowledge gets the rest.
      const narrow = await ok('POST', '/v1/api-keys', users.alice.key, { name: 'no-knowledge', scopes: ['sessions:read', 'todos:read', 'sheets:read'] });
      const noKnowledge = await memoryExport({ ...cli(narrow.api_key), project: PROJECT });
      assert.ok(noKnowledge.includes('### Latest handover') && !noKnowledge.includes('### Knowledge'));

      // The handover's session is now older than the sessions listed: it is still carried, and round-trips.
      const full = await memoryExport({ ...cli(users.alice.key), project: PROJECT });
      assert.ok(!full.includes('#### Parser rewrite') && full.includes('**Session:** Parser rewrite'));
      const fresh = await s.user();
      fs.writeFileSync(path.join(dir, 'AGENTS.md'), full);
      const r = await memoryImport([path.join(dir, 'AGENTS.md')], { ...cli(fresh.key), cwd: dir });
      assert.equal(r.counts.sessions.created, 11);
      assert.equal(comparable(await memoryExport({ ...cli(fresh.key), project: PROJECT })), comparable(full));
    });

    it('imports CLAUDE.md, AGENTS.md, Cursor rules and Claude Code MEMORY.md once; edits update; concurrent runs converge', async () => {
      const dir = tmp();
      const home = tmp();
      fs.writeFileSync(
        path.join(dir, 'CLAUDE.md'),
        '# Project\n\nUse tabs.\n\n## Testing\n\nRun `npm test`.\n\n```md\n## not a heading\n```\n\n## Lockfile error\n\nError: EINTEGRITY sha512 mismatch\nFix: delete node_modules and run npm ci\n',
      );
      fs.writeFileSync(path.join(dir, 'AGENTS.md'), 'Always answer in English.\n');
      fs.mkdirSync(path.join(dir, '.cursor', 'rules'), { recursive: true });
      fs.writeFileSync(path.join(dir, '.cursor', 'rules', 'style.mdc'), '---\ndescription: style\nalwaysApply: true\n---\nPrefer small functions.\n');
      fs.writeFileSync(path.join(dir, '.cursor', 'rules', 'notes.txt'), 'not a rule');
      const mem = path.join(claudeProjectDir(dir, home), 'memory');
      fs.mkdirSync(mem, { recursive: true });
      fs.writeFileSync(path.join(mem, 'MEMORY.md'), '## Preferences\n\n- user likes short commits\n- [Deploys](deploys.md)\n');
      fs.writeFileSync(path.join(mem, 'deploys.md'), '---\nname: deploys\n---\nDeploy with `make ship` from main only.\n');

      const run = () => memoryImport([], { url: s.url, key: users.carol.key, cwd: dir, home, project: 'acme' });
      const first = await run();
      assert.equal(first.files.length, 5);
      assert.deepEqual(first.counts.knowledge, { created: 7, updated: 0, unchanged: 0 });
      const tagged = await ok('GET', '/v1/knowledge?tag=memory-import&limit=100', users.carol.key);
      assert.deepEqual(
        tagged.solutions.map((e: any) => [e.title, e.error]),
        [['CLAUDE.md: Lockfile error', 'EINTEGRITY sha512 mismatch']],
      );
      assert.deepEqual(
        tagged.snippets.map((e: any) => e.title).sort(),
        ['.cursor/rules/style.mdc', 'AGENTS.md', 'CLAUDE.md', 'CLAUDE.md: Testing', 'Claude Code MEMORY.md: Preferences', 'Claude Code memory/deploys.md'].sort(),
      );
      assert.ok(tagged.snippets.find((e: any) => e.title === 'CLAUDE.md: Testing').content.includes('## not a heading'));

      assert.deepEqual((await run()).counts.knowledge, { created: 0, updated: 0, unchanged: 7 });
      fs.appendFileSync(path.join(mem, 'MEMORY.md'), '- and small pull requests\n');
      assert.deepEqual((await run()).counts.knowledge, { created: 0, updated: 1, unchanged: 6 });

      const both = await Promise.all([0, 1].map(() => memoryImport([], { url: s.url, key: users.dave.key, cwd: dir, home, project: 'acme' })));
      assert.equal(both[0]!.counts.knowledge.created + both[1]!.counts.knowledge.created >= 7, true);
      const dave = await ok('GET', '/v1/knowledge?tag=memory-import&limit=100', users.dave.key);
      assert.equal(dave.total, 7, JSON.stringify(dave));
    });

    it('bad input: an unknown project, an unreadable file, no key', async () => {
      await assert.rejects(memoryExport({ ...cli(users.alice.key), project: 'no-such-project' }), (err: any) => {
        assert.equal(err.exitCode, 2);
        assert.match(err.message, /Project "no-such-project" has no handover, session or open todo/);
        return true;
      });
      const dir = tmp();
      await assert.rejects(memoryImport(['missing.md'], { ...cli(users.alice.key), cwd: dir }), (err: any) => err.exitCode === 2 && /Cannot read missing\.md: no such file/.test(err.message));
      await assert.rejects(memoryImport([dir], { ...cli(users.alice.key), cwd: dir }), (err: any) => err.exitCode === 2 && /Cannot read/.test(err.message));
      await assert.rejects(memoryExport({ url: s.url, key: 'sk_wrong', project: PROJECT, home: dir }), (err: any) => err.exitCode === 2 && /API key was refused/.test(err.message));
      const bad = await memoryImport([], { ...cli(users.alice.key), cwd: dir });
      assert.deepEqual(bad.files, []);

      if (dialect !== 'sqlite') return; // the command line itself, once
      // Asynchronously: the server answering it runs in this process.
      const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const env = { ...process.env, SHEET_WORKSPACE_URL: s.url, SHEET_WORKSPACE_API_KEY: users.alice.key, HOME: dir };
        const child = execFile(process.execPath, ['--import', 'tsx', 'src/main.ts', 'memory', 'export', '--project', 'no-such-project'], { env, timeout: 120_000 }, (_err, stdout, stderr) =>
          resolve({ status: child.exitCode, stdout, stderr }),
        );
      });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /Project "no-such-project"/);
      assert.equal(r.stdout, '');
    });
  });
}
