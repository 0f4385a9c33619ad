// Which project a session belongs to. Reads .git files directly: spawning git costs ~5-10 ms per call,
// a noticeable share of a hook's 100 ms median.
import fs from 'node:fs';
import path from 'node:path';

/** SHEET_WORKSPACE_PROJECT, else origin's repository name, else the git top-level folder's name, else cwd's name. */
export function detectProject(cwd, override = '') {
  if (override) return override;
  const repo = findRepo(cwd);
  if (repo) {
    const name = repoNameFromUrl(originUrl(repo.configFile) ?? '');
    if (name) return name;
    return path.basename(repo.root) || repo.root;
  }
  return path.basename(path.resolve(cwd)) || 'default';
}

/** The working tree root and git config file for cwd, or null outside a repository. */
export function findRepo(cwd) {
  let dir = path.resolve(cwd);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    let stat;
    try {
      stat = fs.statSync(dotGit);
    } catch {
      stat = null;
    }
    if (stat?.isDirectory()) return { root: dir, configFile: path.join(dotGit, 'config') };
    if (stat?.isFile()) return { root: dir, configFile: configOfGitFile(dotGit, dir) };
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** A worktree's or submodule's .git file: "gitdir: <path>"; a worktree shares the main repository's config. */
function configOfGitFile(dotGitFile, root) {
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGitFile, 'utf8'));
    if (!m) return null;
    const gitDir = path.resolve(root, m[1]);
    let common = gitDir;
    try {
      common = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
    } catch {
      /* a submodule or a plain gitdir link: its own config */
    }
    return path.join(common, 'config');
  } catch {
    return null;
  }
}

/** url of [remote "origin"] in a git config file, or null. */
export function originUrl(configFile) {
  if (!configFile) return null;
  let text;
  try {
    text = fs.readFileSync(configFile, 'utf8');
  } catch {
    return null;
  }
  let inOrigin = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([^\s\]"]+)(?:\s+"([^"]*)")?\s*\]/.exec(line);
    if (section) {
      inOrigin = section[1].toLowerCase() === 'remote' && section[2] === 'origin';
      continue;
    }
    const kv = inOrigin ? /^url\s*=\s*(.*)$/i.exec(line) : null;
    if (kv) return kv[1].replace(/^"(.*)"$/, '$1').trim();
  }
  return null;
}

/** ".../acme/rocket-app.git", "git@host:acme/rocket-app.git", "file:///srv/rocket-app/" -> "rocket-app". */
export function repoNameFromUrl(url) {
  const trimmed = url
    .trim()
    .replace(/[?#].*$/, '')
    .replace(/[\\/]+$/, '')
    .replace(/\.git$/i, '')
    .replace(/[\\/]+$/, '');
  const last = trimmed.split(/[\\/:]/).pop() ?? '';
  return last.trim();
}
