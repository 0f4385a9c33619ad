import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryInputError } from './memory-client.js';
import type { DigestKnowledge } from './memory-format.js';
import { findSections } from './memory-format.js';
import { refFor } from './memory-import.js';

/**
 * The memory files `memory import` reads, and how a file becomes knowledge entries: the text before the first
 * `## ` heading is one entry (titled by the file), each `## ` section another ("<file>: <heading>"); headings inside
 * code fences do not split. A section with an `Error:` line and a `Fix` line becomes a solution (the error line
 * as its error), any other a Markdown snippet. Exported sections (between the markers) are cut out first: they
 * are turned back into records instead.
 */

export interface MemoryFile {
  path: string;
  /** How titles and references name it: relative to the folder, or "Claude Code MEMORY.md". */
  label: string;
  text: string;
}

/** Claude Code's folder for a project's memory: the absolute path with every other character than A-Z, a-z, 0-9 as "-". */
export const claudeProjectDir = (cwd: string, home: string) => path.join(home, '.claude', 'projects', path.resolve(cwd).replace(/[^A-Za-z0-9]/g, '-'));

/** The default files: CLAUDE.md, AGENTS.md, .cursor/rules/*.mdc in cwd, and Claude Code's memory folder for cwd (MEMORY.md and its topic files). */
export function defaultPaths(cwd: string, home = os.homedir()): string[] {
  const out = ['CLAUDE.md', 'AGENTS.md'].map((f) => path.join(cwd, f)).filter((f) => fs.existsSync(f));
  const rules = path.join(cwd, '.cursor', 'rules');
  if (fs.existsSync(rules)) {
    for (const f of fs.readdirSync(rules).sort()) if (f.endsWith('.mdc')) out.push(path.join(rules, f));
  }
  // Claude Code's auto memory: the MEMORY.md index and the topic files beside it.
  const memory = path.join(claudeProjectDir(cwd, home), 'memory');
  if (fs.existsSync(path.join(memory, 'MEMORY.md'))) {
    out.push(path.join(memory, 'MEMORY.md'));
    for (const f of fs.readdirSync(memory).sort()) if (f.endsWith('.md') && f !== 'MEMORY.md') out.push(path.join(memory, f));
  }
  return out;
}

/** Reads every file first, so an unreadable one stops the import before anything is written. */
export function readFiles(paths: string[], cwd: string): MemoryFile[] {
  return paths.map((p) => {
    const abs = path.resolve(cwd, p);
    let text: string;
    try {
      text = fs.readFileSync(abs, 'utf8');
    } catch (err) {
      throw new MemoryInputError(`Cannot read ${p}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
    if (text.includes('\u0000')) throw new MemoryInputError(`${p} is not a text file`);
    const rel = path.relative(cwd, abs);
    const claude = abs.includes(`${path.sep}.claude${path.sep}`) && path.basename(path.dirname(abs)) === 'memory';
    const label = claude ? (path.basename(abs) === 'MEMORY.md' ? 'Claude Code MEMORY.md' : `Claude Code memory/${path.basename(abs)}`) : rel.startsWith('..') ? path.basename(abs) : rel;
    return { path: abs, label, text };
  });
}

/** The file's text without its exported sections. */
export function withoutSections(text: string): string {
  let out = '';
  let at = 0;
  for (const s of findSections(text)) {
    out += text.slice(at, s.start);
    at = s.end;
  }
  return out + text.slice(at);
}

const ERROR_LINE = /^\s*(?:[-*]\s*)?(?:\*\*)?Error(?:\*\*)?\s*:(?:\*\*)?\s*(.+)$/im;
const FIX_LINE = /^\s*(?:[-*]\s*)?(?:\*\*)?(?:Fix|Solution)(?:\*\*)?\s*:/im;
const CONTENT_MAX = 500_000;

/** The knowledge entries a foreign memory file becomes (references from project, file and heading). */
export function fileEntries(f: MemoryFile, project: string): Omit<DigestKnowledge, 'id'>[] {
  const chunks: { heading: string | null; lines: string[] }[] = [{ heading: null, lines: [] }];
  let fence = false;
  for (const line of withoutSections(f.text).split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (!fence && line.startsWith('## ')) chunks.push({ heading: line.slice(3).trim(), lines: [] });
    chunks[chunks.length - 1]!.lines.push(line);
  }
  const seen = new Map<string, number>();
  return chunks.flatMap((c) => {
    const content = c.lines.join('\n').trim();
    const body = c.heading === null ? content : content.split('\n').slice(1).join('\n').trim();
    if (!body) return [];
    const key = c.heading ?? '';
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const title = (c.heading ? `${f.label}: ${c.heading}` : f.label).slice(0, 1000);
    const error = ERROR_LINE.exec(body);
    const solution = !!error && FIX_LINE.test(body);
    return [
      {
        ref: refFor(project, f.label, key, String(n)),
        kind: solution ? ('solution' as const) : ('snippet' as const),
        title,
        error: solution ? error![1]!.trim().slice(0, 100_000) : null,
        description: solution ? null : `Imported from ${f.label}${project ? ` (project ${project})` : ''} by sheet-workspace memory import`,
        language: 'markdown',
        content: content.slice(0, CONTENT_MAX),
      },
    ];
  });
}
