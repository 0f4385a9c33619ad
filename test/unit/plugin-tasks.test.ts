import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTaskMap, pruneTaskMaps, todoItems } from '../plugin-modules.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-tasks-'));
const post = (tool_name: string, tool_input: unknown, tool_response: unknown = {}) => ({ hook_event_name: 'PostToolUse', session_id: 's1', tool_name, tool_input, tool_response });

describe('plugin tasks to todos', () => {
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('follows one task from TaskCreated through TaskUpdate and TaskCompleted without sending a change twice', () => {
    const map = loadTaskMap(tmp, 'flow');
    assert.deepEqual(todoItems({ hook_event_name: 'TaskCreated', task_id: '1', task_subject: 'Ship it' }, map), [{ content: 'Ship it', status: 'pending' }]);
    // The PostToolUse of the same TaskCreate: already sent.
    assert.deepEqual(todoItems(post('TaskCreate', { subject: 'Ship it', activeForm: 'Shipping' }, { task: { id: '1', subject: 'Ship it' } }), map), []);
    assert.deepEqual(todoItems(post('TaskUpdate', { taskId: '1', status: 'in_progress' }), map), [{ content: 'Ship it', status: 'in_progress', activeForm: 'Shipping' }]);
    assert.deepEqual(todoItems({ hook_event_name: 'TaskCompleted', task_id: '1', task_subject: 'Ship it' }, map), [{ content: 'Ship it', status: 'completed' }]);
    assert.deepEqual(todoItems(post('TaskUpdate', { taskId: '1', status: 'completed' }), map), []);
    assert.deepEqual(todoItems(post('TaskUpdate', { taskId: '1', status: 'deleted' }), map), []);
  });

  it('a TaskCreate without its TaskCreated hook is sent; the map survives between hook runs, owner-only', () => {
    const map = loadTaskMap(tmp, 'persist');
    assert.deepEqual(todoItems(post('TaskCreate', { subject: 'Write docs' }, { task: { id: '7', subject: 'Write docs' } }), map), [{ content: 'Write docs', status: 'pending' }]);
    map.save();
    const file = path.join(tmp, 'tasks', 'persist.json');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(todoItems(post('TaskUpdate', { taskId: '7', status: 'completed' }), loadTaskMap(tmp, 'persist')), [{ content: 'Write docs', status: 'completed' }]);
  });

  it('an id our map never saw is read from the task file the CLI keeps', () => {
    const config = path.join(tmp, 'claude-config');
    fs.mkdirSync(path.join(config, 'tasks', 's1'), { recursive: true });
    fs.writeFileSync(path.join(config, 'tasks', 's1', '3.json'), JSON.stringify({ id: '3', subject: 'From the CLI', status: 'in_progress' }));
    const before = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = config;
    try {
      assert.deepEqual(todoItems(post('TaskUpdate', { taskId: '3', status: 'completed' }), loadTaskMap(tmp, 'cli')), [{ content: 'From the CLI', status: 'completed' }]);
      assert.deepEqual(todoItems(post('TaskUpdate', { taskId: '../../etc', status: 'completed' }), loadTaskMap(tmp, 'cli')), []);
      assert.deepEqual(todoItems(post('TaskUpdate', { taskId: '99', status: 'completed' }), loadTaskMap(tmp, 'cli')), []);
    } finally {
      if (before === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = before;
    }
  });

  it('TodoWrite sends the whole list, redacted, without items the service would refuse', () => {
    const items = todoItems(
      post('TodoWrite', {
        todos: [
          { content: 'Rotate ghp_16C7e42F292c6912E7710c838347Ae178B4a soon', status: 'pending', activeForm: 'Rotating' },
          { content: '  ', status: 'pending' },
          { content: 'Odd status', status: 'blocked' },
          { content: 'Done thing', status: 'completed' },
        ],
      }),
      loadTaskMap(tmp, 'tw'),
    );
    assert.deepEqual(items, [
      { content: 'Rotate [REDACTED] soon', status: 'pending', activeForm: 'Rotating' },
      { content: 'Done thing', status: 'completed' },
    ]);
    assert.deepEqual(todoItems(post('Write', { file_path: '/x' }), loadTaskMap(tmp, 'tw')), []);
  });

  it('forgets task maps untouched for a month', () => {
    const map = loadTaskMap(tmp, 'old');
    map.set('1', { subject: 'x', status: 'pending' });
    map.save();
    pruneTaskMaps(tmp, Date.now() + 29 * 86_400_000);
    assert.ok(fs.existsSync(path.join(tmp, 'tasks', 'old.json')));
    pruneTaskMaps(tmp, Date.now() + 31 * 86_400_000);
    assert.equal(fs.existsSync(path.join(tmp, 'tasks', 'old.json')), false);
  });
});
