import { convertHtml, type HtmlConversion } from '../../runtime/html-convert.js';
import { markdownText } from '../../lib/html-markdown.js';
import { escapeHtml } from '../../lib/sanitize-html.js';
import type { SheetView } from '../sheets/sheets.schemas.js';
import type { ExportFormat } from './exports.schemas.js';

/** Pure renderers: a sheet in, the file's text, type and extension out. Everything HTML goes through the sanitizer first. */

export interface Rendered {
  body: string;
  contentType: string;
  extension: string;
}

/** Columns in numeric order (col2 before col10). */
function columnKeys(sheet: SheetView): string[] {
  return Object.keys(sheet.content).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
}
/** Every column in the form `kind`, in column order; long columns are converted off the event loop. */
async function columns(sheet: SheetView, kind: HtmlConversion): Promise<string[]> {
  const out: string[] = [];
  for (const k of columnKeys(sheet)) out.push(await convertHtml(kind, sheet.content[k], `column ${k}`));
  return out;
}

const yamlString = (s: string) => JSON.stringify(s);

async function markdown(sheet: SheetView): Promise<string> {
  const front = [
    '---',
    `title: ${yamlString(sheet.title)}`,
    ...(sheet.folder ? [`folder: ${yamlString(sheet.folder)}`] : []),
    `tags: [${sheet.tags.map(yamlString).join(', ')}]`,
    `created: ${sheet.createdAt}`,
    `updated: ${sheet.updatedAt}`,
    '---',
  ].join('\n');
  const body = (await columns(sheet, 'markdown')).filter((md) => md.length > 0).join('\n\n---\n\n');
  return `${front}\n\n# ${markdownText(sheet.title)}\n\n${body}\n`;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
.column{border:1px solid #d0d7de;border-radius:6px;padding:0 1rem}
pre{background:#f6f8fa;padding:.75rem;overflow:auto}img{max-width:100%}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.25rem .5rem}
.meta{color:#57606a;font-size:.875rem}`;

/** A complete, self-contained document; its own CSP forbids scripts even if opened from disk. */
async function html(sheet: SheetView): Promise<string> {
  const keys = columnKeys(sheet);
  const sanitized = await columns(sheet, 'sanitized');
  const cols = keys.map((k, i) => `<section class="column" data-column="${k}">\n${sanitized[i]}\n</section>`).join('\n');
  const tags = sheet.tags.length ? ` · ${sheet.tags.map(escapeHtml).join(', ')}` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: data:; style-src 'unsafe-inline'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(sheet.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<article>
<h1>${escapeHtml(sheet.title)}</h1>
<p class="meta">${sheet.folder ? `${escapeHtml(sheet.folder)} · ` : ''}updated ${escapeHtml(sheet.updatedAt)}${tags}</p>
<div class="columns">
${cols}
</div>
</article>
</body>
</html>
`;
}

async function txt(sheet: SheetView): Promise<string> {
  const body = (await columns(sheet, 'text')).filter((t) => t.length > 0).join('\n\n');
  return `${sheet.title}\n${'='.repeat(Math.min(sheet.title.length, 80))}\n\n${body}\n`;
}

export async function renderSheet(sheet: SheetView, format: ExportFormat): Promise<Rendered> {
  switch (format) {
    case 'markdown':
      return { body: await markdown(sheet), contentType: 'text/markdown; charset=utf-8', extension: 'md' };
    case 'html':
      return { body: await html(sheet), contentType: 'text/html; charset=utf-8', extension: 'html' };
    case 'txt':
      return { body: await txt(sheet), contentType: 'text/plain; charset=utf-8', extension: 'txt' };
    case 'json':
      return { body: `${JSON.stringify(sheet, null, 2)}\n`, contentType: 'application/json; charset=utf-8', extension: 'json' };
  }
}

/** A file name from the title: letters and digits of any script kept, everything else collapsed to '-'. */
export function exportFilename(title: string, extension: string): string {
  const base = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'sheet'}.${extension}`;
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
