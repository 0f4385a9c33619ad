import { normalizeForSearch } from '../search/substring/search-text.js';
import type { SheetsTable } from '../../db/types.js';
import { preparedHtmlToText } from '../../runtime/html-text-pool.js';
import { utf8Buffer } from '../../db/dialect.js';
import { columnOrder } from './sheets.columns.js';
import type { SheetView } from './sheets.schemas.js';

export type Content = Record<string, string>;

/** A sheet as reads fetch it: every column but search_text, which is as long as the content and never answered. */
export type SheetRow = Omit<SheetsTable, 'search_text'>;
export const SHEET_ROW_COLUMNS = [
  'id',
  'workspace_id',
  'user_id',
  'title',
  'content',
  'folder',
  'tags',
  'created_at',
  'updated_at',
  'trashed_at',
  'version',
  'last_changes',
  'last_actor',
] as const satisfies readonly (keyof SheetRow)[];

export function toSheetView(row: SheetRow): SheetView {
  return sheetView(row, JSON.parse(row.content) as Content, JSON.parse(row.tags) as string[]);
}

/** A sheet as the JSON reads fetch it: content as the UTF-8 bytes of its stored JSON text. */
export type StoredSheetRow = Pick<SheetRow, 'id' | 'workspace_id' | 'title' | 'folder' | 'tags' | 'created_at' | 'updated_at' | 'trashed_at' | 'version'> & { content: Buffer };

/**
 * The sheet's view as JSON bytes, without parsing its content: the stored content and tags are
 * JSON.stringify's own output (every write makes them so), so they go in as they are. Keys in the
 * order of the Sheet schema, so the bytes are what serializing toSheetView(row) gives. Decoding,
 * parsing and re-encoding a 1-3 KB content was a third of a GET by id (docs/performance.md, tenth pass).
 */
export function sheetJson(row: StoredSheetRow): Buffer {
  return Buffer.concat([Buffer.from(sheetJsonHead(row)), row.content, Buffer.from(sheetJsonTail(row))]);
}

const GET_HEAD = Buffer.from('{"success":true,"sheet":');
const GET_TAIL = Buffer.from('}');

/** GetSheetResponse without a window, around a sheet's bytes (sheetJson). */
export const sheetResponseJson = (sheet: Buffer): Buffer => Buffer.concat([GET_HEAD, sheet, GET_TAIL]);

type JsonFields = Pick<SheetRow, 'id' | 'workspace_id' | 'title' | 'folder' | 'tags' | 'created_at' | 'updated_at' | 'trashed_at' | 'version'>;
const sheetJsonHead = (row: JsonFields) => `{"id":${JSON.stringify(row.id)},"title":${JSON.stringify(row.title)},"content":`;
const sheetJsonTail = (row: JsonFields) =>
  `,"folder":${JSON.stringify(row.folder)},"tags":${row.tags},"createdAt":${JSON.stringify(row.created_at)},` +
  `"updatedAt":${JSON.stringify(row.updated_at)},"trashedAt":${JSON.stringify(row.trashed_at)},"version":${row.version},` +
  `"workspace_id":${JSON.stringify(row.workspace_id)}}`;

const LIST_HEAD = Buffer.from('{"success":true,"sheets":[');
const COMMA = Buffer.from(',');

/** ListSheetsResponse of a plain page (every field, no snippet) as bytes, each sheet as sheetJson makes it. */
export function sheetListJson(rows: readonly SheetRow[], total: number): Buffer {
  const parts: Buffer[] = [LIST_HEAD];
  rows.forEach((row, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(sheetJson({ ...row, content: utf8Buffer(row.content) }));
  });
  parts.push(Buffer.from(`],"total":${total}}`));
  return Buffer.concat(parts);
}

/** The view of a row whose content and tags the caller already holds parsed (a write): a 1 MB sheet is not parsed again. */
export function sheetView(row: SheetRow, content: Content, tags: string[]): SheetView {
  return {
    id: row.id,
    title: row.title,
    content,
    folder: row.folder,
    tags,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    trashedAt: row.trashed_at,
    version: row.version,
    workspace_id: row.workspace_id,
  };
}

/** What q searches: the title and the visible text of every column. */
export function sheetSearchText(title: string, content: Content): string {
  return normalizeForSearch([title, ...columnOrder(Object.keys(content)).map((k) => preparedHtmlToText(content[k]))].join('\n'));
}
