import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// docs/architecture.md is where a newcomer looks first, so a path it names must still be there after a
// file moves (and so must the full source paths the other documents name). Every file or folder name in it (full path, partial path or a <domain> pattern) must match
// a file of the repository, and its list of domains must be exactly the folders of src/modules.
const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = 'docs/architecture.md';
const text = fs
  .readFileSync(path.join(ROOT, DOC), 'utf8')
  .replace(/<br\/?>/g, ' ')
  .replaceAll('&lt;', '<')
  .replaceAll('&gt;', '>');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && fs.existsSync(path.join(ROOT, f)));

const NAME = String.raw`[A-Za-z0-9_<>*.-]`;
const FILE = new RegExp(String.raw`(?<![\w/.-])(?:${NAME}+/)*${NAME}*[A-Za-z0-9_<>*-]\.(?:tsx?|cjs|mjs|json|md)\b`, 'g');
const FOLDER = new RegExp(String.raw`(?<![\w/.-])(?:src|console|test|docs|scripts|bench)/(?:${NAME}+/)*`, 'g');

/** `<domain>` stands for one path segment, `*` for part of one, `NNN` for a migration's number. */
const pattern = (name: string) =>
  name
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/<[a-z]+>/gi, '[^/]+')
    .replace(/\*/g, '[^/]*')
    .replace('NNN', '\\d{3}');

describe('docs/architecture.md', () => {
  it('names only files and folders that exist', () => {
    const named = new Set([...text.matchAll(FILE), ...text.matchAll(FOLDER)].map((m) => m[0]));
    assert.ok(named.size > 40, `found only ${named.size} names: is the pattern still right?`);
    const missing = [...named].filter((name) => {
      const re = new RegExp(`(^|/)${pattern(name)}${name.endsWith('/') ? '' : '$'}`);
      return !files.some((f) => re.test(f));
    });
    assert.deepEqual(missing, [], `${DOC} names paths that are not in the repository`);
  });

  it('links only to documents that exist', () => {
    const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    const missing = links.filter((l) => !fs.existsSync(path.resolve(ROOT, 'docs', l)));
    assert.deepEqual(missing, []);
  });

  it('every other document names only source paths that exist', () => {
    const FULL = /(?<![\w/.-])(?:src|console\/src|test|scripts|bench)\/[\w./-]*\w\.(?:tsx?|cjs|mjs|json)\b/g;
    const missing = fs
      .readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) => [...fs.readFileSync(path.join(ROOT, 'docs', f), 'utf8').matchAll(FULL)].map((m) => `docs/${f}: ${m[0]}`))
      // A plugin's own docs name its files from the plugin's folder (scripts/hook.mjs): any folder of the repo may hold it.
      .filter((hit) => {
        const named = hit.slice(hit.indexOf(': ') + 2);
        return !/NNN|<\w+>/.test(hit) && !files.some((f) => f === named || f.endsWith(`/${named}`));
      });
    assert.deepEqual(missing, [], 'a file moved: update the documents that name it');
  });

  it('lists every folder of src/modules as a domain', () => {
    const line = text.split('\n\n').find((p) => p.startsWith('`<domain>` is one of:'));
    assert.ok(line, 'the paragraph listing the domains');
    const listed = [
      ...line
        .slice(line.indexOf(':') + 1)
        .replace(/\([^)]*\)/g, '')
        .matchAll(/(?:^|,)\s*([a-z-]+)/g),
    ]
      .map((m) => m[1])
      .sort();
    const folders = fs.readdirSync(path.join(ROOT, 'src/modules')).sort();
    assert.deepEqual(listed, folders);
  });
});
