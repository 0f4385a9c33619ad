/**
 * The NOTIFY payload that tells other processes which workspaces a commit wrote events for, so their
 * event streams wake only those workspaces' readers. `a:<origin>:<id>,<id>`: origin is the sending
 * process's outbox (a process skips its own, already woken locally). An empty or unknown payload
 * (an older process, too many workspaces for one NOTIFY) means "any workspace".
 */
const PREFIX = 'a:';
/** PostgreSQL refuses payloads of 8,000 bytes or more; ids are ASCII. */
const MAX_PAYLOAD = 7900;

export function encodeWake(origin: string, workspaces: Iterable<string> | undefined): string {
  if (workspaces === undefined) return '';
  const payload = `${PREFIX}${origin}:${[...workspaces].join(',')}`;
  return payload.length <= MAX_PAYLOAD ? payload : '';
}

/** `workspaces` undefined: any workspace may have events. */
export function decodeWake(payload: string | undefined): { origin?: string; workspaces?: string[] } {
  if (!payload?.startsWith(PREFIX)) return {};
  const end = payload.indexOf(':', PREFIX.length);
  if (end < 0) return {};
  const list = payload.slice(end + 1);
  return { origin: payload.slice(PREFIX.length, end), workspaces: list === '' ? [] : list.split(',') };
}
