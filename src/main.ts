import { Command } from 'commander';
import { ConfigError, loadConfig } from './config.js';
import { runUsersCommand } from './cli/users.js';
import { registerMemoryCommands } from './cli/memory-command.js';
import { serve } from './server.js';

const program = new Command('sheet-workspace').description('Sheet Workspace service');

program
  .command('serve')
  .description('Serve the REST API (and the webhook worker)')
  .action(() => serve({ mode: 'all' }));
program
  .command('worker')
  .description('Run only the webhook delivery worker')
  .action(() => serve({ mode: 'worker' }));
program
  .command('api')
  .description('Serve the API without the webhook worker')
  .action(() => serve({ mode: 'api' }));
program
  .command('mcp')
  .description('MCP server on stdio for SHEET_WORKSPACE_API_KEY (local database, or SHEET_WORKSPACE_URL to use a running server)')
  .action(async () => (await import('./cli/mcp-stdio.js')).runStdioMcp());

program
  .command('copy-to-postgres')
  .description("Copy everything in DATA_DIR's SQLite database into an empty PostgreSQL database (migrated first), then compare row counts")
  .argument('[postgres-url]', 'the target; visible to every user of the machine in ps, so prefer DATABASE_URL or --url-file')
  .option('--url-file <path>', 'read the target URL from this file (first line)')
  .addHelpText('after', '\nThe target is the argument, else the first line of --url-file, else DATABASE_URL (the variable the server is then started with).')
  .action(async (url, o) => (await import('./cli/copy-to-postgres.js')).runCopyToPostgres({ url, urlFile: o.urlFile }));

const users = program
  .command('users')
  .description('Manage accounts (on the database DATA_DIR or DATABASE_URL names; the server may be running)')
  .addHelpText('after', '\nLost the owner key? `users list` shows the account ids; `users key <user_id>` prints a new key.');
users
  .command('create')
  .description('Create an account and its first API key (printed once)')
  .requiredOption('--name <name>', 'account name')
  .option('--plan <plan>', 'free, pro or business', 'free')
  .option('--json', 'print JSON')
  .action((o) => runUsersCommand('create', o));
users
  .command('list')
  .description('List accounts: id, plan, name')
  .option('--json', 'print JSON')
  .action((o) => runUsersCommand('list', o));
users
  .command('import')
  .description('Create an account holding everything in an account export zip (GET /v1/account/export); prints its id and a new API key')
  .argument('<zip>')
  .requiredOption('--name <name>', 'account name')
  .option('--plan <plan>', 'free, pro or business (default: free; the plan in the zip is never used, anyone holding the zip can edit it)')
  .option('--max-unpacked <size>', 'refuse a zip whose records unpack to more than this (bytes, or with K, M, G; default 1G)')
  .option('--max-entry <size>', 'refuse a zip with one record file unpacking to more than this (default and most: 512M less 24 bytes)')
  .option('--json', 'print JSON: {user_id, api_key} (plus webhooks with their new secrets, when there are any)')
  .action(async (file, o) => (await import('./cli/import.js')).runUsersImport(file, o));
users
  .command('key')
  .description('Give an existing account a new full-access API key (printed once); its other keys keep working')
  .argument('<user_id>')
  .option('--name <name>', 'name of the new key', 'cli')
  .option('--json', 'print JSON: {user_id, api_key}')
  .action((userId, o) => runUsersCommand('key', { ...o, userId }));
users
  .command('set-plan')
  .description("Change an account's plan")
  .argument('<user_id>')
  .argument('<plan>', 'free, pro or business')
  .option('--json', 'print JSON')
  .action((userId, plan, o) => runUsersCommand('set-plan', { ...o, userId, plan }));

program
  .command('connect')
  .description('Connect an assistant (codex, gemini-cli, cursor): briefing at session start, session capture, the MCP server')
  .argument('<assistant>', 'codex, gemini-cli or cursor')
  .option('--url <url>', 'the service URL (default SHEET_WORKSPACE_URL or http://127.0.0.1:8787)')
  .option('--key <key>', 'an API key (default SHEET_WORKSPACE_API_KEY)')
  .option('--project-dir <dir>', 'Cursor: the project folder for the rules file (default: the current folder)')
  .option('--trust-folder <dir>', 'Gemini CLI: mark this folder trusted in ~/.gemini/trustedFolders.json (headless runs need it)')
  .action(async (assistant, o) => (await import('./cli/connect.js')).runConnect(assistant, { url: o.url, key: o.key, projectDir: o.projectDir, trustFolder: o.trustFolder }));
registerMemoryCommands(program);
program
  .command('backup')
  .description("Write a consistent snapshot of DATA_DIR's SQLite database and the server key to <file> (mode 0600); the server may keep running")
  .argument('<file>')
  .option('--force', 'replace <file> if it exists')
  .action(async (file, o) => (await import('./cli/backup.js')).runBackup(file, o));
program
  .command('restore')
  .description('Restore a backup file into a data directory (new or empty, or --force)')
  .argument('<file>')
  .option('--data-dir <dir>', 'the data directory to restore into (default: DATA_DIR)')
  .option('--force', "replace the directory's database and secret key (stop the server first)")
  .action(async (file, o) => (await import('./cli/restore.js')).runRestore(file, o));

program.parseAsync().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(78);
  }
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});

export { loadConfig };
