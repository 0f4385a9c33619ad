// The hook Claude Code runs is one generated file: it must be what the readable modules build to, and need nothing but Node.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOOK_SCRIPT, HOOK_SOURCE } from '../plugin-modules.js';
// @ts-expect-error: plain .mjs module without type declarations
import { BUNDLE, buildHookBundle } from '../../plugins/claude-code/scripts/bundle.mjs';

const PLUGIN_ROOT = path.resolve(path.dirname(HOOK_SCRIPT), '..');

describe('plugin hook bundle', () => {
  it('the committed hooks/hook.cjs is a fresh build of scripts/*.mjs (run `node plugins/claude-code/scripts/bundle.mjs`)', async () => {
    assert.equal(BUNDLE, HOOK_SCRIPT);
    const fresh: string = await buildHookBundle();
    assert.ok(fresh === fs.readFileSync(HOOK_SCRIPT, 'utf8'), 'hooks/hook.cjs is stale: run `node plugins/claude-code/scripts/bundle.mjs` and commit it');
  });

  it('requires only node: builtins, and http, https and child_process only where used', () => {
    const text = fs.readFileSync(HOOK_SCRIPT, 'utf8');
    const required = [...text.matchAll(/require\(("[^"]*")\)/g)].map((m) => JSON.parse(m[1]) as string);
    assert.ok(required.length > 0);
    for (const name of required) assert.match(name, /^node:/, `the bundle requires ${name}`);
    assert.doesNotMatch(text, /\bimport\(|import\.meta/, 'no ES module loader at run time');
    assert.doesNotMatch(text, /__toESM/, 'builtins are required plainly, not copied property by property');
    // Loaded at the top: only what node's own start has loaded already; node:os on its first use (HOME unset).
    const eager = [...text.matchAll(/^var \w+ = require\("([^"]+)"\);$/gm)].map((m) => m[1]).sort();
    assert.deepEqual(eager, ['node:fs', 'node:path']);
    assert.match(text, /^var \w+ = new Proxy\(\{\}, \{ get: \(_, key\) => \(\w+ \?\?= require\("node:os"\)\)\[key\] \}\);$/m);
  });

  it('SessionStart runs session-start.sh, every capture hook capture.sh with its event, the handover command the bundle; the bundle and the source answer alike', () => {
    const hooks = JSON.parse(fs.readFileSync(path.join(PLUGIN_ROOT, 'hooks', 'hooks.json'), 'utf8')).hooks as Record<string, { hooks: { command: string }[] }[]>;
    const commands = Object.entries(hooks).flatMap(([event, groups]) => groups.flatMap((g) => g.hooks.map((h) => ({ event, command: h.command }))));
    assert.deepEqual(commands.map((c) => c.event).sort(), ['PostToolUse', 'PreCompact', 'SessionEnd', 'SessionStart', 'TaskCompleted', 'TaskCreated']);
    for (const { event, command } of commands) {
      assert.equal(command, event === 'SessionStart' ? 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/session-start.sh"' : `sh "\${CLAUDE_PLUGIN_ROOT}/hooks/capture.sh" ${event}`);
    }
    assert.match(fs.readFileSync(path.join(PLUGIN_ROOT, 'hooks', 'sender.sh'), 'utf8'), /node "\$hooks\/hook\.cjs" flush/, 'the shell hooks start the bundle as the sender');
    assert.match(fs.readFileSync(path.join(PLUGIN_ROOT, 'hooks', 'session-start.sh'), 'utf8'), /exec node "\$hooks\/hook\.cjs" SessionStart/, 'and fall back to it');
    assert.match(fs.readFileSync(path.join(PLUGIN_ROOT, 'commands', 'handover.md'), 'utf8'), /node "\$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/hook\.cjs" project/);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-bundle-'));
    try {
      fs.mkdirSync(path.join(dir, 'app', '.git'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'app', '.git', 'config'), '[remote "origin"]\n\turl = https://github.com/acme/rocket-app.git\n');
      const env = { PATH: process.env.PATH ?? '', HOME: dir };
      const project = (script: string) => spawnSync(process.execPath, [script, 'project'], { cwd: path.join(dir, 'app'), env, encoding: 'utf8' });
      const [bundled, source] = [project(HOOK_SCRIPT), project(HOOK_SOURCE)];
      assert.deepEqual([bundled.status, bundled.stdout], [0, 'rocket-app\n']);
      assert.deepEqual([source.status, source.stdout], [0, 'rocket-app\n']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
