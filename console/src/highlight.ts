import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import 'highlight.js/styles/github.css';

// The core plus the languages agents write most; the full bundle would be ~300 KB more.
for (const [name, lang] of Object.entries({ bash, css, go, javascript, json, python, rust, sql, typescript, xml, yaml })) hljs.registerLanguage(name, lang);

/** Highlighted HTML for code (highlight.js escapes the text); plain escaped text for unknown languages. */
export function highlight(code: string, language: string | null | undefined): { html: string; language?: string } {
  const lang = language && hljs.getLanguage(language.toLowerCase()) ? language.toLowerCase() : undefined;
  if (lang) return { html: hljs.highlight(code, { language: lang, ignoreIllegals: true }).value, language: lang };
  const auto = hljs.highlightAuto(code);
  return { html: auto.value, language: auto.language };
}
