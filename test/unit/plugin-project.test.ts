import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectProject, findRepo, repoNameFromUrl } from '../plugin-modules.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-project-'));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } })
    .toString()
    .trim();

function repo(name: string, origin?: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'src', 'deep'), { recursive: true });
  git(dir, 'init', '-q');
  if (origin) git(dir, 'remote', 'add', 'origin', origin);
  return dir;
}

describe('plugin project detection', () => {
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('takes the repository name from every common form of origin', () => {
    const cases: [string, string][] = [
      ['https://github.com/acme/rocket-app.git', 'rocket-app'],
      ['https://github.com/acme/rocket-app', 'rocket-app'],
      ['https://gitlab.example.com/group/sub/rocket-app.git/', 'rocket-app'],
      ['git@github.com:acme/rocket-app.git', 'rocket-app'],
      ['github.com:rocket-app.git', 'rocket-app'],
      ['ssh://git@host:2222/acme/rocket-app.git', 'rocket-app'],
      ['file:///srv/git/rocket-app.git', 'rocket-app'],
      ['/srv/git/rocket-app', 'rocket-app'],
      ['C:\\repos\\rocket-app.git', 'rocket-app'],
    ];
    for (const [url, name] of cases) assert.equal(repoNameFromUrl(url), name, url);
  });

  it('uses origin from a subfolder of a real repository (scp-style url), other remotes ignored', () => {
    const dir = repo('checkout-folder', 'git@github.com:acme/rocket-app.git');
    git(dir, 'remote', 'add', 'upstream', 'https://github.com/other/upstream-name.git');
    assert.equal(detectProject(path.join(dir, 'src', 'deep')), 'rocket-app');
    assert.equal(findRepo(path.join(dir, 'src'))?.root, dir);
  });

  it('SHEET_WORKSPACE_PROJECT wins over everything', () => {
    const dir = repo('overridden', 'https://github.com/acme/rocket-app.git');
    assert.equal(detectProject(dir, 'my-own-name'), 'my-own-name');
  });

  it('without origin: the git top-level folder name, even from a subfolder', () => {
    const dir = repo('no-origin-here');
    git(dir, 'remote', 'add', 'backup', 'https://example.com/acme/backup.git');
    assert.equal(detectProject(path.join(dir, 'src', 'deep')), 'no-origin-here');
  });

  it('a linked worktree (.git is a file) reads the main repository config', () => {
    const dir = repo('main-checkout', 'https://github.com/acme/rocket-app.git');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a');
    git(dir, 'add', 'a.txt');
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'a');
    const wt = path.join(tmp, 'feature-worktree');
    git(dir, 'worktree', 'add', '-q', wt);
    assert.ok(fs.statSync(path.join(wt, '.git')).isFile());
    assert.equal(detectProject(wt), 'rocket-app');
    assert.equal(findRepo(wt)?.root, wt);
  });

  it('a worktree of a repository without origin is named after its own top-level folder', () => {
    const dir = repo('plain-main');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a');
    git(dir, 'add', 'a.txt');
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'a');
    const wt = path.join(tmp, 'plain-worktree');
    git(dir, 'worktree', 'add', '-q', wt);
    assert.equal(detectProject(path.join(wt)), 'plain-worktree');
  });

  it('outside any repository: the working directory name', () => {
    const dir = path.join(tmp, 'loose', 'just-a-folder');
    fs.mkdirSync(dir, { recursive: true });
    // tmp itself may sit inside a repository on a developer machine; only assert when it does not
    if (!findRepo(dir)) assert.equal(detectProject(dir), 'just-a-folder');
    assert.equal(detectProject(path.join(tmp, 'does-not-exist', 'named-dir')), findRepo(tmp) ? path.basename(findRepo(tmp)!.root) : 'named-dir');
  });

  it('a broken .git file or unreadable config falls back to the folder name', () => {
    const dir = path.join(tmp, 'broken-gitfile');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, '.git'), 'not a gitdir line');
    assert.equal(detectProject(dir), 'broken-gitfile');
  });
});
