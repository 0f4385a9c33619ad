import type { Command } from 'commander';

/** `memory export` and `memory import` (src/cli/memory.ts, docs/memory-files.md). */
export function registerMemoryCommands(program: Command): void {
  const memory = program.command('memory').description("A project's memory as Markdown files, and memory files into the service (a running server: SHEET_WORKSPACE_URL, SHEET_WORKSPACE_API_KEY)");
  const server = (c: Command) =>
    c.option('--url <url>', 'the service URL (default SHEET_WORKSPACE_URL, else connect.json, else http://127.0.0.1:8787)').option('--key <key>', 'an API key (default SHEET_WORKSPACE_API_KEY)');
  server(
    memory
      .command('export')
      .description("Write a bounded Markdown digest of a project's memory: latest handover, recent sessions, open todos, top knowledge")
      .requiredOption('--project <name>', 'the project, as sessions and todos are saved with it')
      .option('--workspace <id>', 'the workspace (wsp_...; default: your personal one)')
      .option('--out <file>', "write into this file (AGENTS.md, CLAUDE.md): the project's section is replaced, the rest kept; default stdout")
      .option('--max-chars <n>', 'the most characters the section may have (default 20000)'),
  ).action(async (o) => (await import('./memory.js')).runMemory('export', { opts: o }));
  server(
    memory
      .command('import')
      .description('Read memory files into knowledge (and exported sections back into sessions, a handover, todos); a second run adds nothing')
      .argument('[paths...]', 'files (default: CLAUDE.md, AGENTS.md, .cursor/rules/*.mdc here and Claude Code MEMORY.md for this folder)')
      .option('--project <name>', 'the project named in the titles of imported sections (default: the folder name)')
      .option('--workspace <id>', 'the workspace to write into (wsp_...; default: your personal one)'),
  ).action(async (paths, o) => (await import('./memory.js')).runMemory('import', { paths, opts: o }));
}
