import os from 'node:os';
import path from 'node:path';
import { createApi, type ClientOptions } from './memory-client.js';
import { exportMemory, parseMaxChars } from './memory-export.js';
import { defaultPaths, fileEntries, readFiles } from './memory-files.js';
import { parseDigest } from './memory-parse.js';
import { findSections } from './memory-format.js';
import { emptyCounts, importDigest, upsertKnowledge, type Counts } from './memory-import.js';

/**
 * `sheet-workspace memory export|import` (docs/memory-files.md): a project's memory as a Markdown section any
 * assistant can read without the service, and memory files (CLAUDE.md, AGENTS.md, Cursor rules, Claude Code's
 * MEMORY.md) into the service. Both talk to a running server with an API key, so every rule of the service holds.
 */

export interface MemoryCliOptions extends ClientOptions {
  workspace?: string;
  cwd?: string;
}

export async function memoryExport(o: MemoryCliOptions & { project: string; file?: string; maxChars?: string }): Promise<string> {
  const api = createApi(o);
  const r = await exportMemory(api, { project: o.project, workspace: o.workspace, maxChars: parseMaxChars(o.maxChars), out: o.file ? path.resolve(o.cwd ?? process.cwd(), o.file) : undefined });
  return r.written ? `wrote the memory of project ${JSON.stringify(o.project)} (${r.text.length} characters) into ${r.written}\n` : r.text;
}

export async function memoryImport(paths: string[], o: MemoryCliOptions & { project?: string }): Promise<{ counts: Counts; files: string[] }> {
  const cwd = o.cwd ?? process.cwd();
  const files = readFiles(paths.length ? paths : defaultPaths(cwd, o.home ?? os.homedir()), cwd);
  const api = createApi(o);
  const ws: Record<string, string> = o.workspace ? { workspace_id: o.workspace } : {};
  const project = o.project ?? path.basename(path.resolve(cwd));
  const counts = emptyCounts();
  for (const f of files) {
    for (const s of findSections(f.text)) await importDigest(api, parseDigest(s.text, s.project), o.workspace, counts);
    for (const k of fileEntries(f, project)) await upsertKnowledge(api, k, ws, counts);
  }
  return { counts, files: files.map((f) => f.path) };
}

const say = (c: Counts) => (Object.entries(c) as [string, Counts['todos']][]).map(([k, t]) => `${k}: ${t.created} created, ${t.updated} updated, ${t.unchanged} already there`).join('\n');

/** The commands' actions: output on stdout, a message on stderr and exit code 2 for what the user can fix. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander's parsed options, which differ between export and import
export async function runMemory(command: 'export' | 'import', args: { paths?: string[]; opts: any }): Promise<void> {
  try {
    if (command === 'export') {
      process.stdout.write(await memoryExport({ ...args.opts, file: args.opts.out }));
      return;
    }
    const r = await memoryImport(args.paths ?? [], args.opts);
    if (!r.files.length) process.stdout.write('No memory files found (CLAUDE.md, AGENTS.md, .cursor/rules/*.mdc, Claude Code MEMORY.md): nothing imported\n');
    else process.stdout.write(`imported ${r.files.join(', ')}\n${say(r.counts)}\n`);
  } catch (err) {
    const code = (err as { exitCode?: number }).exitCode;
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(typeof code === 'number' ? code : 1);
  }
}
