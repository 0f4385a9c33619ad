import { AppError } from '../../errors.js';
import { OFF_THREAD_MIN_CHARS, prepareHtmlTexts } from '../../runtime/html-text-pool.js';
import type { TxRunner } from '../../events/outbox.js';
import type { AuthContext } from '../../auth/context.js';
import type { Caller, RecordAction } from '../workspaces/workspaces.access.js';
import type { ExpectedVersions } from '../../auth/expected-versions.js';
import { unpackContent, type SheetRevisionsRepo } from './sheets.revisions.repo.js';
import { fieldChanges, type SheetWriter } from './sheets.write.js';
import { toSheetView, type Content, type SheetRow } from './sheets.view.js';
import type { InWorkspace } from './sheets.schemas.js';

export const REVISIONS_LIST_DEFAULT = 50;
export const REVISIONS_LIST_MAX = 100;

const revisionNotFound = (id: string, version: number) => new AppError('not_found', `sheet ${id} has no kept revision ${version} (GET /sheets/${id}/revisions lists them)`);

const parseJson = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));

type StoredActor = { type: 'api_key' | 'console' | 'oauth_client'; id: string | null; name: string | null; user_id?: string };
type ActorView = { type: StoredActor['type']; id: string | null; name: string | null; user_id: string | null };

/**
 * Who wrote, as `caller` may see it: their own writes with the credential (key or client id and name);
 * another member's (a team sheet) with that member's user id and account name only, never which of their
 * keys or apps it was. Writes from before workspaces stored no account (user_id null): they are the
 * owner's own, on a personal sheet.
 */
function actorView(text: string | null, caller: Caller, names: Map<string, string>): ActorView | null {
  const actor = text === null ? null : (JSON.parse(text) as StoredActor | null);
  if (!actor) return null;
  if (actor.user_id === undefined || actor.user_id === caller.userId) return { type: actor.type, id: actor.id, name: actor.name, user_id: actor.user_id ?? null };
  return { type: actor.type, id: null, name: names.get(actor.user_id) ?? null, user_id: actor.user_id };
}

/** The account names of the writers other than the caller among `actors` (stored JSON). */
async function otherWriters(repo: SheetRevisionsRepo, caller: Caller, actors: (string | null)[]) {
  const ids = new Set<string>();
  for (const text of actors) {
    const userId = text === null ? undefined : (JSON.parse(text) as StoredActor | null)?.user_id;
    if (userId !== undefined && userId !== caller.userId) ids.add(userId);
  }
  return repo.userNames([...ids]);
}

/** Earlier versions of a sheet: list, read, and restore one as a new version. */
export function createSheetRevisions(deps: {
  revisions: SheetRevisionsRepo;
  writer: SheetWriter;
  tx: TxRunner;
  /** The sheet when the caller may read it (and it is in `opts.workspace_id`, when given). */
  owned: (caller: Caller, id: string, action: RecordAction, opts: InWorkspace) => Promise<SheetRow>;
  /** Checks the caller may write the sheet (before the transaction); the workspace to lock it under. */
  writable: (caller: Caller, id: string, opts: InWorkspace) => Promise<string>;
}) {
  const { revisions, writer, tx, owned } = deps;

  async function revisionOf(caller: Caller, id: string, version: number, opts: InWorkspace = {}) {
    await owned(caller, id, 'records.read', opts);
    const row = await revisions.find(id, version);
    if (!row) throw revisionNotFound(id, version);
    return {
      version: row.version,
      title: row.title,
      content: JSON.parse(unpackContent(row.content)) as Content,
      folder: row.folder,
      tags: JSON.parse(row.tags) as string[],
      updatedAt: row.updated_at,
    };
  }

  /** The restored columns become the sheet's search text: long ones are read off the event loop before the transaction. */
  async function prepareRevision(id: string, version: number) {
    const kept = await revisions.find(id, version);
    if (!kept) return;
    const content = unpackContent(kept.content);
    if (content.length >= OFF_THREAD_MIN_CHARS) await prepareHtmlTexts(Object.values(JSON.parse(content) as Content));
  }

  return {
    async listRevisions(caller: Caller, id: string, query: { limit?: number; offset?: number }, opts: InWorkspace = {}) {
      const sheet = await owned(caller, id, 'records.read', opts);
      const { rows, total } = await revisions.list(id, Math.min(query.limit ?? REVISIONS_LIST_DEFAULT, REVISIONS_LIST_MAX), query.offset ?? 0);
      const names = await otherWriters(revisions, caller, [...rows.map((r) => r.actor), sheet.last_actor]);
      return {
        revisions: rows.map((r) => ({
          version: r.version,
          title: r.title,
          folder: r.folder,
          tags: JSON.parse(r.tags) as string[],
          changes: parseJson<string[]>(r.changes, []),
          updatedAt: r.updated_at,
          actor: actorView(r.actor, caller, names),
        })),
        total,
        current: {
          version: sheet.version,
          changes: parseJson<string[]>(sheet.last_changes, []),
          updatedAt: sheet.updated_at,
          actor: actorView(sheet.last_actor, caller, names),
        },
      };
    },

    getRevision: revisionOf,

    /** A new version equal to the revision (its trash state stays as it is); identical to the current one: no change. */
    async restoreRevision(auth: AuthContext, id: string, version: number, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      // Never parse content the caller cannot restore: the access check comes first.
      const workspaceId = await deps.writable(auth, id, opts);
      await prepareRevision(id, version);
      return tx(async (trx) => {
        const row = await writer.lockOwned(trx, workspaceId, id, expected);
        const kept = await revisions.find(id, version, trx);
        if (!kept) throw revisionNotFound(id, version);
        const current = toSheetView(row);
        const next = {
          ...current,
          title: kept.title,
          content: JSON.parse(unpackContent(kept.content)) as Content,
          folder: kept.folder,
          tags: JSON.parse(kept.tags) as string[],
        };
        const changes = fieldChanges(current, next);
        if (changes.length === 0) return current;
        return writer.save(trx, auth, row, next, changes);
      });
    },
  };
}
