import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../lib/project-root.js';

/**
 * `sheet-workspace connect <codex|gemini-cli|cursor>`: writes the assistant's configuration so it gets the briefing at
 * session start, sends a session record per session and has the MCP server. Idempotent (a second run changes nothing),
 * prints what it changed, and writes the API key only into files of mode 0600.
 *  - all: ~/.sheet-workspace/connect.json {url, api_key}: the hook programs read it when SHEET_WORKSPACE_URL /
 *    SHEET_WORKSPACE_API_KEY are not set.
 *  - codex: $CODEX_HOME/hooks.json (SessionStart, Stop, SessionEnd -> plugins/codex/hook.mjs) and a managed block in
 *    $CODEX_HOME/config.toml with [mcp_servers.sheet-workspace].
 *  - gemini-cli: ~/.gemini/extensions/sheet-workspace linked to plugins/gemini-cli (as `gemini extensions link` does)
 *    and mcpServers.sheet-workspace in ~/.gemini/settings.json; with --trust-folder, that one folder in
 *    ~/.gemini/trustedFolders.json (headless `gemini -p` exits with code 55 in a folder that is not trusted).
 *  - cursor: ~/.cursor/mcp.json and the rules file .cursor/rules/sheet-workspace.mdc in the project folder.
 */

export const ASSISTANTS = ['codex', 'gemini-cli', 'cursor'] as const;
export type Assistant = (typeof ASSISTANTS)[number];
export interface ConnectOptions {
  url?: string;
  key?: string;
  /** The home folder to write into (default: the user's); CODEX_HOME is honoured for Codex. */
  home?: string;
  /** Cursor's project folder (default: the current folder). */
  projectDir?: string;
  /** Gemini CLI: a folder to mark trusted (TRUST_FOLDER) in ~/.gemini/trustedFolders.json, only when the user asks. */
  trustFolder?: string;
}

/** This checkout (found by its package.json: the code runs from src/cli under tsx and from one bundle in build/). */
const REPO_ROOT = projectRoot();
const BEGIN = '# >>> sheet-workspace (written by `sheet-workspace connect codex`; edits inside are replaced) >>>';
const END = '# <<< sheet-workspace <<<';
const tomlString = (s: string) => JSON.stringify(s);

/** Writes a file only when its content differs; returns whether it did. Secret files are owner-only (0600). */
function write(file: string, content: string, secret: boolean, changed: string[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  const modeOk = !secret || old === null || (fs.statSync(file).mode & 0o077) === 0;
  if (old === content && modeOk) return;
  fs.writeFileSync(file, content, { mode: secret ? 0o600 : 0o644 });
  if (secret) fs.chmodSync(file, 0o600);
  changed.push(`${old === null ? 'created' : 'updated'} ${file}${secret ? ' (mode 600)' : ''}`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- another program's config file: JSON of any shape, written back as it was
function readJson(file: string): Record<string, any> {
  if (!fs.existsSync(file)) return {};
  const text = fs.readFileSync(file, 'utf8');
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    /* below */
  }
  throw new Error(`${file} is not a JSON object: fix or move it, then run connect again`);
}
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** The hook commands: node with this repository's hook program (absolute paths, so any working folder works). */
const codexHook = (event: string) => `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO_ROOT, 'plugins', 'codex', 'hook.mjs'))} ${event}`;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- another program's config file: JSON of any shape, written back as it was
const ours = (h: any) => typeof h?.command === 'string' && h.command.includes(path.join('plugins', 'codex', 'hook.mjs'));

function connectCodex(home: string, url: string, key: string, changed: string[]): void {
  const codexHome = process.env.CODEX_HOME && !home ? process.env.CODEX_HOME : path.join(home || os.homedir(), '.codex');
  const hooksFile = path.join(codexHome, 'hooks.json');
  const hooksDoc = readJson(hooksFile);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- another program's config file: JSON of any shape, written back as it was
  const hooks: Record<string, any[]> = hooksDoc.hooks && typeof hooksDoc.hooks === 'object' ? hooksDoc.hooks : {};
  for (const event of ['SessionStart', 'Stop', 'SessionEnd']) {
    const groups = (Array.isArray(hooks[event]) ? hooks[event] : [])
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- another program's config file: JSON of any shape, written back as it was
      .map((g: any) => ({ ...g, hooks: (Array.isArray(g?.hooks) ? g.hooks : []).filter((h: any) => !ours(h)) }))
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- another program's config file: JSON of any shape, written back as it was
      .filter((g: any) => g.hooks.length);
    groups.push({ hooks: [{ type: 'command', command: codexHook(event) }] });
    hooks[event] = groups;
  }
  write(hooksFile, json({ ...hooksDoc, hooks }), false, changed);

  const configFile = path.join(codexHome, 'config.toml');
  const old = fs.existsSync(configFile) ? fs.readFileSync(configFile, 'utf8') : '';
  const start = old.indexOf(BEGIN);
  const stop = old.indexOf(END);
  const rest = start >= 0 && stop > start ? old.slice(0, start) + old.slice(stop + END.length).replace(/^\n/, '') : old;
  if (/^\s*\[mcp_servers\.("?)sheet-workspace\1\]/m.test(rest)) throw new Error(`${configFile} already defines [mcp_servers.sheet-workspace] outside connect's block: remove it, then run connect again`);
  const block = [BEGIN, '[mcp_servers.sheet-workspace]', `url = ${tomlString(`${url}/mcp`)}`, `http_headers = { Authorization = ${tomlString(`Bearer ${key}`)} }`, END].join('\n');
  const base = rest.replace(/\s*$/, '');
  write(configFile, `${base ? `${base}\n\n` : ''}${block}\n`, true, changed);
}

function connectGemini(home: string, url: string, key: string, trustFolder: string | undefined, changed: string[]): string[] {
  const gemini = path.join(home || os.homedir(), '.gemini');
  write(path.join(gemini, 'extensions', 'sheet-workspace', '.gemini-extension-install.json'), json({ source: path.join(REPO_ROOT, 'plugins', 'gemini-cli'), type: 'link' }), false, changed);
  const settingsFile = path.join(gemini, 'settings.json');
  const settings = readJson(settingsFile);
  settings.mcpServers = { ...(settings.mcpServers ?? {}), 'sheet-workspace': { httpUrl: `${url}/mcp`, headers: { Authorization: `Bearer ${key}` } } };
  write(settingsFile, json(settings), true, changed);
  const notes = [
    `Gemini CLI: the extension is linked from ${path.join(REPO_ROOT, 'plugins', 'gemini-cli')} without Gemini CLI's own install prompt; \`gemini extensions list\` shows it, \`gemini extensions uninstall sheet-workspace\` removes it.`,
  ];
  if (trustFolder) {
    const dir = fs.realpathSync(path.resolve(trustFolder));
    if (!fs.statSync(dir).isDirectory()) throw new Error(`--trust-folder ${dir} is not a folder`);
    const trustFile = path.join(gemini, 'trustedFolders.json');
    const trusted = readJson(trustFile);
    if (trusted[dir] !== 'TRUST_FOLDER') write(trustFile, json({ ...trusted, [dir]: 'TRUST_FOLDER' }), true, changed);
    notes.push(`Gemini CLI: ${dir} is trusted (TRUST_FOLDER in ${trustFile}), as --trust-folder asked: Gemini CLI loads that folder's own settings, hooks, commands and MCP servers.`);
  } else {
    notes.push(
      'Gemini CLI: in a folder you have not trusted, headless runs (`gemini -p`) exit with code 55 and MCP servers stay off. Trust each project folder once: answer the trust prompt when you start `gemini` there, or run connect again with --trust-folder <dir> (or pass `gemini --skip-trust`).',
    );
  }
  return notes;
}

export const CURSOR_RULES = `---
description: Sheet Workspace memory: read the briefing at the start, save the session at the end
alwaysApply: true
---
This project keeps its working memory in Sheet Workspace (the MCP server "sheet-workspace").
- At the start of a task, call the \`get_briefing\` tool for this project and follow what it says is left to do.
- At the end of a session (or before you stop for a while), call \`save_session\` with a title naming what was done,
  a short summary, the files changed, the commands that failed with their first error line, what is still open,
  and agent "cursor". Never put secrets (keys, tokens, passwords) in it.
`;

function connectCursor(home: string, projectDir: string, url: string, key: string, changed: string[]): void {
  const mcpFile = path.join(home || os.homedir(), '.cursor', 'mcp.json');
  const mcp = readJson(mcpFile);
  mcp.mcpServers = { ...(mcp.mcpServers ?? {}), 'sheet-workspace': { url: `${url}/mcp`, headers: { Authorization: `Bearer ${key}` } } };
  write(mcpFile, json(mcp), true, changed);
  write(path.join(projectDir, '.cursor', 'rules', 'sheet-workspace.mdc'), CURSOR_RULES, false, changed);
}

/** Connects one assistant; returns the lines it prints (what changed, what to do next). */
export function connect(assistant: string, o: ConnectOptions = {}): string[] {
  if (!(ASSISTANTS as readonly string[]).includes(assistant)) throw new Error(`unknown assistant "${assistant}": one of ${ASSISTANTS.join(', ')}`);
  const url = (o.url || process.env.SHEET_WORKSPACE_URL || 'http://127.0.0.1:8787').trim().replace(/\/+$/, '');
  const key = (o.key || process.env.SHEET_WORKSPACE_API_KEY || '').trim();
  if (!/^https?:\/\/[^\s]+$/.test(url)) throw new Error(`--url must be an http(s) URL, got "${url}"`);
  if (!key) throw new Error('an API key is needed: --key <key> or SHEET_WORKSPACE_API_KEY (make one in the console or with `sheet-workspace users key`)');
  if (/[\s"\\]/.test(key)) throw new Error('the API key must not contain spaces, quotes or backslashes');
  const home = o.home ?? '';
  const changed: string[] = [];
  let notes: string[] = [];
  if (o.trustFolder && assistant !== 'gemini-cli') throw new Error('--trust-folder is for gemini-cli only');
  write(path.join(home || os.homedir(), '.sheet-workspace', 'connect.json'), json({ url, api_key: key }), true, changed);
  if (assistant === 'codex') connectCodex(home, url, key, changed);
  else if (assistant === 'gemini-cli') notes = connectGemini(home, url, key, o.trustFolder, changed);
  else connectCursor(home, o.projectDir ?? process.cwd(), url, key, changed);
  const lines = changed.length ? changed : ['nothing to change: already connected'];
  lines.push(...notes);
  if (assistant === 'codex') lines.push('Codex asks to review new hooks once (in the TUI: /hooks); until they are trusted they do not run.');
  return lines;
}

export function runConnect(assistant: string, o: ConnectOptions): void {
  try {
    for (const line of connect(assistant, o)) console.log(line);
  } catch (err) {
    console.error(`connect: ${(err as Error).message}`);
    process.exitCode = 2;
  }
}
