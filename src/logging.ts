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
    transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: false } },
  };
}
