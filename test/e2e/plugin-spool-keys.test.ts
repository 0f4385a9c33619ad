// Finding: one plugin spool served every key. An event captured in project A under the personal key, kept while the
// service was down, was later sent by a sender running with project B's team-restricted key, and landed in the team
// workspace. Each kept event now names the service URL and the fingerprint of the key it was captured under; a sender
// sends only its own, and the others wait for theirs. Through capture.sh and the real sender, against the real server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dialects } from '../helpers.js';
import { runShell } from '../plugin-helpers.js';
import { useServer } from '../server-fixture.js';
import { CAPTURE_SCRIPT, HOOK_SCRIPT, LOCK_NAME, keyFingerprint } from '../plugin-modules.js';

for (const dialect of dialects()) {
  describe(`plugin spool: an event is sent only with the key it was captured under [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { users: { owner: 'business' }, env: { RATE_LIMIT_DISABLED: '1' } });
    let tmp: string;
    let personalKey: string;
    let teamKey: string;
    before(async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-keys-'));
      const personal = `wsp_${users.owner.userId.slice(4)}`;
      const team = (await s.req('POST', '/v1/workspaces', { key: users.owner.key, body: { name: 'Team' } })).body.workspace.id as string;
      const keyFor = async (workspace: string) => {
        const r = await s.req('POST', '/v1/api-keys', { key: users.owner.key, body: { name: `plugin ${workspace}`, workspace_id: workspace } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return r.body.api_key as string;
      };
      personalKey = await keyFor(personal);
      teamKey = await keyFor(team);
    });
    after(() => (process.env.KEEP_TMP ? console.log(tmp) : fs.rmSync(tmp, { recursive: true, force: true })));

    const todosOf = async (project: string, key: string) => ((await s.req('GET', `/v1/todos?project=${project}`, { key })).body.todos as { content: string }[] | undefined)?.map((t) => t.content) ?? [];

    it("a personal-key event kept in the spool is not sent by the team key's sender; the personal key sends it, to its own workspace", async () => {
      const home = path.join(tmp, 'home');
      const state = path.join(home, '.sheet-workspace');
      const inbox = path.join(state, 'inbox');
      fs.mkdirSync(inbox, { recursive: true, mode: 0o700 });
      // A live sender holds the lock: the capture hooks keep their events and start none (as while the service was down).
      fs.writeFileSync(path.join(inbox, LOCK_NAME), `${process.pid}\n`);
      const projectA = `project-a-${dialect}`;
      const projectB = `project-b-${dialect}`;
      const envOf = (key: string, project: string) => ({ HOME: home, SHEET_WORKSPACE_URL: s.url, SHEET_WORKSPACE_API_KEY: key, SHEET_WORKSPACE_PROJECT: project });
      const todo = (content: string) => ({ session_id: 's', cwd: tmp, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content, status: 'pending' }] } });
      assert.equal((await runShell(`sh "${CAPTURE_SCRIPT}" PostToolUse`, todo('Personal plan'), envOf(personalKey, projectA))).code, 0);
      assert.equal((await runShell(`sh "${CAPTURE_SCRIPT}" PostToolUse`, todo('Team plan'), envOf(teamKey, projectB))).code, 0);
      const kept = fs.readdirSync(inbox).filter((f) => f.endsWith('.json'));
      assert.equal(kept.length, 2);
      const texts = kept.map((f) => fs.readFileSync(path.join(inbox, f), 'utf8'));
      fs.rmSync(path.join(inbox, LOCK_NAME));

      // The sender of a session in project B, with the team key.
      // Spawned, not spawnSync: the server answers from this process.
      const flush = (key: string, project: string) => runShell(`node "${HOOK_SCRIPT}" flush`, {}, envOf(key, project));
      assert.equal((await flush(teamKey, projectB)).code, 0);
      assert.deepEqual(await todosOf(projectB, teamKey), ['Team plan']);
      assert.deepEqual(await todosOf(projectA, teamKey), [], 'the personal event did not reach the team workspace');
      assert.deepEqual(await todosOf(projectA, personalKey), []);
      const waiting = fs.readdirSync(path.join(state, 'spool')).filter((f) => f.endsWith('.json'));
      assert.equal(waiting.length, 1, 'the personal event waits for its key');

      // The personal key again (any project): its event goes, where that key points.
      assert.equal((await flush(personalKey, `elsewhere-${dialect}`)).code, 0);
      assert.deepEqual(await todosOf(projectA, personalKey), ['Personal plan']);
      assert.deepEqual(await todosOf(projectA, teamKey), []);
      assert.deepEqual(fs.readdirSync(path.join(state, 'spool')), []);
      assert.ok(
        texts.every((t) => !t.includes(personalKey) && !t.includes(teamKey)),
        'the keys themselves are never kept',
      );
      assert.ok(
        texts.some((t) => t.includes(`owner ${keyFingerprint(personalKey)} ${s.url}\n`)),
        'each event names its key by fingerprint',
      );
    });
  });
}
