import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loggerOptions } from '../../src/logging.js';
import { startProcess } from '../processes.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const hasScript = fs.existsSync('/usr/bin/script');

describe('log format', () => {
  it('JSON lines when stdout is not a terminal, pino-pretty when it is', () => {
    assert.deepEqual(loggerOptions('info', { isTTY: false }), { level: 'info' });
    assert.equal((loggerOptions('debug', { isTTY: true }).transport as { target: string }).target, 'pino-pretty');
  });

  it('a server with piped stdout writes JSON', async () => {
    const p = await startProcess({});
    try {
      const up = p.logs.find((l) => l.msg === 'Sheet Workspace is up');
      assert.ok(up, 'the start line parsed as JSON');
      assert.equal(up!.level, 30);
    } finally {
      await p.stop();
    }
  });

  it('a server on a terminal writes readable lines', { skip: hasScript ? false : 'util-linux script(1) not installed' }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-tty-'));
    // script(1) gives the server a pseudo-terminal as stdout, as when a person runs npm start.
    const child = spawn('/usr/bin/script', ['-qfec', `${process.execPath} --import tsx src/main.ts serve`, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, BOOTSTRAP_OWNER: '0', LOG_LEVEL: 'info' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start line in 30 s:\n${out}`)), 30_000);
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('Sheet Workspace is up')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const line = out
        // eslint-disable-next-line no-control-regex -- ESC starts the colour codes being removed
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split(/\r?\n/)
        .find((l) => l.includes('Sheet Workspace is up'))!;
      assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*Sheet Workspace is up/);
      assert.equal(line.trim().startsWith('{'), false);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
