import type { OfflineRunner } from '../../sparks/offline/index.js';
import { translateTask } from '../../sparks/prompts.js';

export const CATEGORIES = ['writing', 'summarize', 'code', 'productivity', 'translate', 'custom'] as const;
export type Category = (typeof CATEGORIES)[number];

interface Base {
  id: `spk_${string}`;
  name: string;
  description: string;
  icon: string;
  category: Category;
}
/** A model spark: `task` is appended to the shared rules (src/sparks/prompts.ts) as the system prompt. */
export type ModelSpark = Base & { kind: 'model'; task: string };
export type OfflineSpark = Base & { kind: 'offline'; runner: OfflineRunner };
export type PublicSpark = ModelSpark | OfflineSpark;

const ACTION_ITEM_NONE = 'No action items found.';

/** The public sparks that ship with the service, in display order. Ids are stable: clients store them. */
export const PUBLIC_SPARKS: readonly PublicSpark[] = [
  // summarize
  {
    id: 'spk_summarize',
    kind: 'model',
    category: 'summarize',
    icon: 'file-text',
    name: 'Summarize',
    description: 'The main point in one sentence, then the key details in a few bullets.',
    task: 'Summarize the content. Start with one sentence that states the main point. Then list the key details (decisions, numbers, names, dates, open questions) as at most five short Markdown bullet points. Keep the summary under a quarter of the original length. No headings.',
  },
  {
    id: 'spk_tldr',
    kind: 'model',
    category: 'summarize',
    icon: 'zap',
    name: 'TL;DR',
    description: 'One sentence of at most 30 words that says what matters most.',
    task: 'Write a TL;DR of the content: a single sentence of at most 30 words that says what matters most to a busy reader. Do not start with "TL;DR" or any other label.',
  },
  {
    id: 'spk_bullet_points',
    kind: 'model',
    category: 'summarize',
    icon: 'list',
    name: 'Bullet points',
    description: 'Rewrite the text as a concise bullet list, one idea per bullet.',
    task: 'Rewrite the content as a concise Markdown bullet list: one idea per bullet, most important first. Keep every fact, number, name and date; drop filler words. Nest a bullet only when it clearly belongs under another. No heading and no introductory sentence.',
  },
  // writing
  {
    id: 'spk_proofread',
    kind: 'model',
    category: 'writing',
    icon: 'spell-check',
    name: 'Proofread',
    description: 'Fix spelling, grammar and punctuation without changing the meaning or style.',
    task: 'Proofread the content: fix spelling, grammar, punctuation and clearly wrong words. Change nothing else: keep the meaning, tone, word choices, line breaks and HTML markup. Do not touch code, URLs, identifiers or quotations. Return the corrected text itself, not a list of corrections. If nothing needs fixing, return the content unchanged.',
  },
  {
    id: 'spk_simplify',
    kind: 'model',
    category: 'writing',
    icon: 'feather',
    name: 'Simplify',
    description: 'Plain, simple language that a newcomer to the topic understands.',
    task: 'Rewrite the content in plain language that a reader new to the topic understands: short sentences, common words, active voice. Explain unavoidable jargon in a few words the first time it appears. Keep every fact and the structure (paragraphs, lists, HTML markup).',
  },
  {
    id: 'spk_formal_tone',
    kind: 'model',
    category: 'writing',
    icon: 'briefcase',
    name: 'Formal tone',
    description: 'Rewrite in a formal, professional tone for business e-mail or reports.',
    task: 'Rewrite the content in a formal, professional tone suitable for a business e-mail or report: complete sentences; no slang, contractions or emoji; courteous and direct, not stiff. Keep the meaning, every fact, the structure and the HTML markup.',
  },
  {
    id: 'spk_friendly_tone',
    kind: 'model',
    category: 'writing',
    icon: 'smile',
    name: 'Friendly tone',
    description: 'Rewrite in a warm, conversational tone while keeping every fact.',
    task: 'Rewrite the content in a warm, friendly, conversational tone, as a helpful colleague would write it: natural sentences, contractions where they sound natural, no exaggerated enthusiasm and no emoji unless the original has them. Keep the meaning, every fact, the structure and the HTML markup.',
  },
  {
    id: 'spk_expand',
    kind: 'model',
    category: 'writing',
    icon: 'maximize-2',
    name: 'Expand',
    description: 'Develop terse notes into fuller prose, roughly twice as long.',
    task: "Expand the content into fuller prose, roughly twice as long: develop each point with explanation, context or an example, in the order given. Keep the author's voice, point of view and structure. Add nothing that contradicts the content or cannot reasonably be inferred from it; where a specific detail (a number, a name, a date) is missing, write around it instead of inventing it.",
  },
  {
    id: 'spk_title_ideas',
    kind: 'model',
    category: 'writing',
    icon: 'lightbulb',
    name: 'Title ideas',
    description: 'Five accurate title suggestions in different styles.',
    task: 'Suggest five titles for the content, varied in style (descriptive, question, short and punchy, benefit-led, specific), each under 70 characters and accurate to what the content actually says. Output a numbered Markdown list of the titles only, without quotation marks.',
  },
  // productivity
  {
    id: 'spk_action_items',
    kind: 'model',
    category: 'productivity',
    icon: 'check-square',
    name: 'Extract action items',
    description: 'Every task and follow-up as a checklist, with owners and due dates when stated.',
    task: `Extract every action item from the content: tasks, follow-ups, and decisions that require someone to do something. Output a Markdown checklist, one item per line, in the form "- [ ] <task starting with a verb> (owner: <name>, due: <date>)", adding owner and due only when the content states them. Keep the order in which they appear and merge duplicates. If there are none, reply exactly: ${ACTION_ITEM_NONE}`,
  },
  {
    id: 'spk_meeting_notes',
    kind: 'model',
    category: 'productivity',
    icon: 'users',
    name: 'Meeting notes',
    description: 'Turn rough notes into summary, decisions, action items and open questions.',
    task: 'Turn the rough notes in the content into structured meeting notes in Markdown with these sections, in this order, leaving out any section that would be empty: "## Summary" (two or three sentences), "## Decisions" (bullets), "## Action items" (a "- [ ]" checklist with owners when stated), "## Open questions" (bullets). Use only what the notes say.',
  },
  {
    id: 'spk_word_count',
    kind: 'offline',
    runner: 'word_count',
    category: 'productivity',
    icon: 'hash',
    name: 'Word count',
    description: 'Words, characters, lines and reading time. Runs without an AI provider.',
  },
  {
    id: 'spk_extract_todos',
    kind: 'offline',
    runner: 'extract_todos',
    category: 'productivity',
    icon: 'list-todo',
    name: 'Extract TODO/FIXME lines',
    description: 'Lines with TODO, FIXME, HACK or XXX and unchecked Markdown tasks, with line numbers. Runs without an AI provider.',
  },
  // code
  {
    id: 'spk_explain_code',
    kind: 'model',
    category: 'code',
    icon: 'code',
    name: 'Explain code',
    description: 'What the code does, how it works step by step, and what to watch out for.',
    task: 'The content is source code. Explain it to a developer who has not seen it before: first one sentence on what it does overall; then walk through the important parts in order as Markdown bullets, naming functions and variables in `backticks`; then, under the line "Watch out:", list bugs, edge cases or risks you notice (leave that part out if there are none). Do not rewrite the code. Write in the language of the comments or surrounding prose, or English if there is none.',
  },
  {
    id: 'spk_commit_message',
    kind: 'model',
    category: 'code',
    icon: 'git-commit',
    name: 'Commit message from diff',
    description: 'A conventional git commit message for a unified diff.',
    task: 'The content is a unified diff (as printed by `git diff`). Write the git commit message for it: a subject line in the imperative mood ("Add", "Fix", not "Added"), at most 72 characters, no trailing period, prefixed with a Conventional Commits type (feat, fix, refactor, perf, docs, test, build, chore) and an optional scope when the change clearly fits one; then a blank line; then a body wrapped at 72 characters that says what changed and why, as short "- " bullets when there are several changes. Describe only what the diff shows. Output the message only, without code fences.',
  },
  {
    id: 'spk_code_review',
    kind: 'model',
    category: 'code',
    icon: 'search-code',
    name: 'Review code',
    description: 'Concrete problems by severity, each with a suggested fix.',
    task: 'Review the code or diff in the content as a careful senior engineer. List concrete problems, most severe first: bugs, security issues, race conditions, unhandled errors, performance traps, then readability. One Markdown bullet each, in the form "- **high|medium|low** <where>: <problem>. <suggested fix>". Do not praise and do not restate the code. If nothing is worth changing, reply exactly: No issues found.',
  },
  {
    id: 'spk_markdown_to_html',
    kind: 'offline',
    runner: 'markdown_to_html',
    category: 'code',
    icon: 'file-code',
    name: 'Markdown to HTML',
    description: 'GitHub-flavoured Markdown rendered to sanitized HTML (no scripts, no event handlers). Runs without an AI provider.',
  },
  {
    id: 'spk_html_to_markdown',
    kind: 'offline',
    runner: 'html_to_markdown',
    category: 'code',
    icon: 'file-down',
    name: 'HTML to Markdown',
    description: 'HTML (for example a sheet column) converted to Markdown. Runs without an AI provider.',
  },
  {
    id: 'spk_html_to_text',
    kind: 'offline',
    runner: 'html_to_text',
    category: 'writing',
    icon: 'type',
    name: 'HTML to plain text',
    description: 'The visible text of HTML: tags removed, entities decoded, one line per block. Runs without an AI provider.',
  },
  // translate
  {
    id: 'spk_translate_en',
    kind: 'model',
    category: 'translate',
    icon: 'languages',
    name: 'Translate to English',
    description: 'Natural English translation that keeps HTML markup intact.',
    task: translateTask('en'),
  },
  {
    id: 'spk_translate_ja',
    kind: 'model',
    category: 'translate',
    icon: 'languages',
    name: 'Translate to Japanese',
    description: 'Natural Japanese translation that keeps HTML markup intact.',
    task: translateTask('ja'),
  },
  // custom
  {
    id: 'spk_improve_prompt',
    kind: 'model',
    category: 'custom',
    icon: 'wand-sparkles',
    name: 'Improve a prompt',
    description: 'Rewrite a prompt for an AI assistant so it is clear, complete and unambiguous.',
    task: 'The content is a prompt that someone wants to give an AI assistant. Rewrite it into a clearer, more effective prompt: state the goal, the context the assistant needs, the constraints, and the expected output format; remove ambiguity; keep every requirement of the original and add none of your own. Output the improved prompt only, in the language of the original.',
  },
];

const BY_ID = new Map<string, PublicSpark>(PUBLIC_SPARKS.map((s) => [s.id, s]));

export function findPublicSpark(id: string): PublicSpark | undefined {
  return BY_ID.get(id);
}
