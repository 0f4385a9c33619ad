/**
 * The search benchmark's corpus and questions (issue 55), generated: the same seed gives the same
 * records and questions, byte for byte. A coding memory of several projects as an assistant would
 * leave it: sessions (with files changed and errors), handover sheets, solutions to errors, snippets
 * and todos, in English and Japanese; facts that change over time (the newer answer counts), and
 * near-miss distractors (the same component in another project, the same error with another code).
 *
 * Questions are written the way people ask: other words (paraphrases from a small synonym table),
 * other word forms (migrate / migrated / migrating), pasted terminal output with its noise, and
 * questions with no answer in the corpus. They never copy a record's title.
 *
 * Written for this repository, under its license.
 */
import { COMPONENTS, ERRORS, JA_FACTS, LOCATIONS, PROJECTS, SETTINGS, TASKS, FILLER_VERBS, FILLER_THINGS, NO_ANSWER, type Project } from './vocab.js';

export type Kind = 'sheet' | 'session' | 'solution' | 'snippet' | 'todo';
export const CATEGORIES = ['fact', 'error', 'decision', 'location', 'open_task', 'updated', 'word_forms', 'cjk', 'no_answer'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface EvalRecord {
  key: string;
  kind: Kind;
  project: string | null;
  /** Hours after the corpus' start: records are written in this order, the clock set to it. */
  at: number;
  title: string;
  /** session: summary; sheet: the column text; solution/snippet: content; todo: unused. */
  body: string;
  error?: string;
  files?: string[];
  tags?: string[];
  language?: string;
  description?: string;
  status?: 'pending' | 'in_progress' | 'completed';
}

export interface EvalQuestion {
  id: string;
  category: Category;
  q: string;
  /** Record keys that answer (any of them counts); empty for no_answer. */
  answers: string[];
  prefer_project?: string;
  /** Set by the runner with --misses: the first titles it got. */
  top?: string;
}

/** mulberry32: a small deterministic generator. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}

/** Other forms of the component names' words, as one might type them. */
const FORMS: Record<string, string[]> = {
  store: ['stores', 'storage'],
  queue: ['queues', 'queueing'],
  logger: ['logging', 'loggers'],
  runner: ['runners', 'running'],
  bundler: ['bundling', 'bundlers'],
  flag: ['flags', 'flagging'],
  provider: ['providers'],
  library: ['libraries'],
  exporter: ['exporting', 'exporters'],
  manager: ['managing', 'managers'],
  resizer: ['resizing', 'resizers'],
  renderer: ['rendering', 'renderers'],
  parser: ['parsing', 'parsers'],
  session: ['sessions'],
  test: ['tests', 'testing'],
  search: ['searching', 'searches'],
  image: ['images'],
  feature: ['features'],
  client: ['clients'],
  email: ['emails', 'e-mail'],
  server: ['servers', 'serving'],
  metrics: ['metric'],
  date: ['dates', 'dating'],
  package: ['packages', 'packaging'],
  cache: ['caching', 'caches'],
  job: ['jobs'],
  secrets: ['secret'],
  backend: ['backends'],
};

export function generate(seed = 55): { records: EvalRecord[]; questions: EvalQuestion[] } {
  const r = rng(seed);
  const records: EvalRecord[] = [];
  const questions: EvalQuestion[] = [];
  let hour = 0;
  const add = (rec: Omit<EvalRecord, 'key' | 'at'>, at?: number): EvalRecord => {
    const full = { ...rec, key: `r${records.length}`, at: at ?? (hour += 1 + r.int(3)) };
    records.push(full);
    return full;
  };
  const ask = (category: Category, q: string, answers: EvalRecord[], prefer?: Project) => {
    // An assistant asks from within a project and passes it as prefer_project: always when the question
    // does not name the project (else it would be ambiguous between projects), half the time when it does.
    const named = prefer !== undefined && q.includes(prefer.name);
    const passes = prefer !== undefined && (!named || r.next() < 0.5);
    questions.push({ id: `q${questions.length}`, category, q, answers: answers.map((a) => a.key), ...(passes ? { prefer_project: prefer.name } : {}) });
  };

  // Decisions and facts: each project switched some components from one tool to another, for a reason.
  for (const p of PROJECTS) {
    for (const c of COMPONENTS) {
      if (r.next() < 0.35) continue;
      const [from, to] = r.pick(c.pairs);
      const reason = r.pick(c.reasons);
      const file = `src/${c.dir}/${r.pick(['index', 'client', 'setup', 'config'])}.${p.ext}`;
      const decided = add({
        kind: 'session',
        project: p.name,
        title: `${r.pick(['Switched', 'Moved', 'Migrated'])} ${c.name} from ${from} to ${to}`,
        body: `${r.pick(['We replaced', 'Replaced'])} ${from} with ${to} for the ${c.name} in ${p.name}: ${reason}. ${to} is now set up in ${file}. ${r.pick(FILLER_THINGS)} unchanged.`,
        files: [file, `${p.name}/package.${p.ext === 'py' ? 'toml' : 'json'}`],
        tags: [c.tag],
      });
      ask(
        'decision',
        `${r.pick(['why did we', 'what was the reason we', 'remind me why we'])} ${r.pick(['drop', 'stop using', 'move off', 'leave'])} ${from} ${r.pick(['', `in ${p.name}`, 'back then'])}`.trim(),
        [decided],
        p,
      );
      ask(
        'fact',
        `${r.pick(['what do we use for', 'which library handles', 'what is our'])} ${r.pick(c.para)} ${r.pick([`in ${p.name}`, `for ${p.name}`, `on the ${p.name} side`])} ${r.pick(['now', 'these days', ''])}`.trim(),
        [decided],
        p,
      );
      // A near miss: the same component discussed in another project, without a switch.
      const other = r.pick(PROJECTS.filter((x) => x !== p));
      add({
        kind: 'session',
        project: other.name,
        title: `Reviewed ${c.name} settings`,
        body: `Looked at the ${c.name} of ${other.name} (${from}); kept it as is. ${r.pick(FILLER_THINGS)} checked too.`,
        tags: [c.tag],
      });
    }
  }

  // Facts that change: a setting recorded, then changed months later (the newer record answers).
  for (const p of PROJECTS) {
    for (const s of SETTINGS) {
      if (r.next() < 0.3) continue;
      const [v1, v2] = s.values(r.int(1000));
      add({ kind: 'session', project: p.name, title: `${s.title} for ${p.name}`, body: `${s.sentence(v1)} in ${p.name}. Checked after the deploy.`, tags: [s.tag] });
      const later = hour + 500 + r.int(2000);
      const newer = add({ kind: 'session', project: p.name, title: `${s.title} for ${p.name}`, body: `${s.sentence(v2)} in ${p.name} (it was ${v1}). ${r.pick(s.why)}.`, tags: [s.tag] }, later);
      ask('updated', `${r.pick(s.para)} ${r.pick([`for ${p.name}`, `in ${p.name}`, `${p.name}`])}`, [newer], p);
      if (r.next() < 0.5) add({ kind: 'session', project: r.pick(PROJECTS.filter((x) => x !== p)).name, title: `${s.title} review`, body: `${s.sentence(v1)} elsewhere; no change.`, tags: [s.tag] });
    }
  }
  hour = Math.max(...records.map((x) => x.at));

  // Errors pasted from a terminal: solutions keep the error and the fix; a near miss has another code.
  for (const e of ERRORS) {
    for (const p of r.next() < 0.5 ? [r.pick(PROJECTS)] : [r.pick(PROJECTS), r.pick(PROJECTS)]) {
      const v = e.vary(r.int(1000));
      const sol = add({ kind: 'solution', project: null, title: e.title(v), error: e.error(v), body: e.fix(v), tags: [p.name, e.tag], language: p.lang });
      if (e.nearMiss) add({ kind: 'solution', project: null, title: e.nearMiss.title, error: e.nearMiss.error, body: e.nearMiss.fix, tags: [e.tag] });
      ask('error', e.pasted(v, r.int(90) + 10), [sol]);
      // The same error met in a session (answers too), with the failing command.
      if (r.next() < 0.4) {
        const ses = add({ kind: 'session', project: p.name, title: `Fixed ${e.short} in ${p.name}`, body: `${e.error(v)}\n${e.fix(v)}`, tags: ['bugfix'] });
        // Only the line that names the error, as one pastes it from a longer output.
        const lines = e.pasted(v, r.int(90) + 10).split('\n');
        ask('error', lines.find((l) => /error|exception|killed|rejected|fatal|denied|blocked/i.test(l)) ?? lines[0], [sol, ses], p);
      }
    }
  }

  // Where things live: a session touched the files; a snippet sometimes holds the code.
  for (const p of PROJECTS) {
    for (const l of LOCATIONS) {
      if (r.next() < 0.4) continue;
      const path = l.path(p);
      const rec =
        r.next() < 0.6
          ? add({
              kind: 'session',
              project: p.name,
              title: `${r.pick(['Reworked', 'Cleaned up', 'Added'])} ${l.what}`,
              body: `${l.detail} The code lives in ${path}; tests next to it.`,
              files: [path, l.test(p)],
            })
          : add({ kind: 'snippet', project: null, title: `${l.what} (${p.name})`, body: l.code, description: `From ${path} in ${p.name}. ${l.detail}`, language: p.lang, tags: [p.name] });
      ask('location', `${r.pick(['where is', 'which file has', 'where do we keep', 'where can I find'])} ${r.pick(l.para)} ${r.pick([`in ${p.name}`, `of ${p.name}`, ''])}`.trim(), [rec], p);
    }
  }

  // Open tasks: todos (some done: a done task is still an answer, the open one is asked for).
  for (const p of PROJECTS) {
    for (const t of TASKS) {
      if (r.next() < 0.45) continue;
      const todo = add({ kind: 'todo', project: p.name, title: t.content(p), body: '', status: r.pick(['pending', 'pending', 'in_progress']) });
      ask('open_task', `${r.pick(['is there an open task about', 'what is left to do on', 'do we still need to handle', 'anything pending for'])} ${r.pick(t.para)}`, [todo], p);
      if (r.next() < 0.3) add({ kind: 'todo', project: p.name, title: t.done(p), body: '', status: 'completed' });
    }
  }

  // Word forms and paraphrases: handover sheets with next steps and notes, asked in other forms.
  for (const p of PROJECTS) {
    for (const c of COMPONENTS.slice(0, 14)) {
      if (r.next() < 0.55) continue;
      const verb = r.pick(c.verbs);
      // The decision session of the same component and project (when there is one) answers too.
      const decision = records.find((x) => x.kind === 'session' && x.project === p.name && x.title.includes(` ${c.name} from `));
      const sheet = add({
        kind: 'sheet',
        project: p.name,
        title: `Handover: ${p.name} ${c.name}`,
        body: `Summary: ${verb.past} the ${c.name} of ${p.name}. Next steps: ${verb.next} the remaining ${c.name} callers; watch the dashboards. Notes: ${r.pick(c.reasons)}.`,
      });
      ask(
        'word_forms',
        `${verb.ask} ${c.name
          .split(' ')
          .map((w) => r.pick(FORMS[w] ?? [w]))
          .join(' ')} ${r.pick(['in', 'for', 'of'])} ${p.name}`,
        decision ? [sheet, decision] : [sheet],
        p,
      );
    }
  }

  // Japanese: the shop-jp project's memory in Japanese, asked in Japanese (two-character words included).
  for (const f of JA_FACTS) {
    const rec =
      f.kind === 'todo'
        ? add({ kind: 'todo', project: 'shop-jp', title: f.title, body: '', status: 'pending' })
        : f.kind === 'solution'
          ? add({ kind: 'solution', project: null, title: f.title, error: f.error, body: f.body, tags: ['shop-jp'] })
          : add({ kind: f.kind, project: 'shop-jp', title: f.title, body: f.body, files: f.files });
    for (const q of f.questions)
      ask(
        'cjk',
        q,
        [rec],
        PROJECTS.find((p) => p.name === 'shop-jp'),
      );
    if (f.distractor) add({ kind: 'session', project: 'shop-jp', title: f.distractor.title, body: f.distractor.body });
  }

  // Everyday work: sessions and todos that answer nothing asked, the bulk of a real memory.
  while (records.length < 2300) {
    const p = r.pick(PROJECTS);
    const thing = r.pick(FILLER_THINGS);
    const v = r.pick(FILLER_VERBS);
    if (r.next() < 0.75) {
      add({
        kind: 'session',
        project: p.name,
        title: `${v} ${thing}`,
        body: `${v} ${thing} in ${p.name}; ${r.pick(FILLER_THINGS)} and ${r.pick(FILLER_THINGS)} touched. Ran the suite, all green.`,
        files: [`src/${thing.split(' ')[0]}.${p.ext}`],
      });
    } else {
      add({ kind: 'todo', project: p.name, title: `${v} ${thing}`, body: '', status: r.pick(['pending', 'completed', 'completed']) });
    }
  }

  for (const q of NO_ANSWER) ask('no_answer', q, []);
  return { records, questions };
}
