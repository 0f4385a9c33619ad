import type { LoggerOptions } from 'pino';

/**
 * Logger options for the process: one JSON object per line for log collectors, unless stdout is a
 * terminal, where a person reads it: then pino-pretty (colour, local time, no pid/hostname) in
 * pino's transport thread, so formatting never slows a request.
 */
export function loggerOptions(level: string, stdout: { isTTY?: boolean } = process.stdout): LoggerOptions {
  if (!stdout.isTTY) return { level };
  return {
    level,
    transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,reqId', singleLine: true } },
  };
}

/** A host as it goes into a URL: IPv6 in brackets, the wildcard addresses as the loopback a browser can open. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * What a newcomer needs after `npm start`, printed once on stdout (not through the logger, so it is
 * never filtered by LOG_LEVEL): where to go, and the owner key when this start created it.
 */
export function startBanner(root: string | null, owner: { user_id: string; api_key: string } | null): string {
  const lines = [''];
  if (root) {
    lines.push(
      `Sheet Workspace is serving ${root}`,
      `  Console     ${root}/console      sign in with an API key`,
      `  Playground  ${root}/playground   try every request in the browser`,
      `  REST API    ${root}/v1           (OpenAPI document: ${root}/v1/openapi.json)`,
      `  MCP         ${root}/mcp`,
    );
  }
  if (owner) {
    lines.push(
      '',
      `Created the owner account ${owner.user_id} (business plan). Its API key, shown only now:`,
      '',
      `  ${owner.api_key}`,
      '',
      `Lost it? npm run cli -- users key ${owner.user_id}   gives the account a new key.`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}
