import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

/** Every record in the console, in real headless Chromium: todos board, knowledge, sessions, stats, Ctrl+K. */
const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

describe('console records in headless Chromium', { skip }, () => {
  let ctx: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const ids: Record<string, string> = {};
  const rest = (method: string, p: string, body?: unknown) => expect200(s, owner.key, method, p, body);
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const go = async (hash: string) => {
    await page.goto(`${s.url}/console/#/${hash}`);
    await page.reload();
  };

  const {
    s,
    users: { owner },
    beforeClose,
  } = useServer('sqlite', { users: { owner: 'pro' } });
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    ids.session = (await rest('POST', '/v1/sessions', { title: 'Quasar refactor', summary: 'Split the parser.', project: 'quasar' })).id;
    await rest('POST', '/v1/knowledge?type=snippets', { title: 'Quasar retry helper', content: 'const retry = async (fn) => { for (;;) try { return await fn(); } catch {} };', language: 'javascript' });
    const todos = (
      await rest('POST', '/v1/todos', {
        project: 'quasar',
        todos: [
          { content: 'Quasar docs', status: 'pending' },
          { content: 'Quasar tests', status: 'pending' },
        ],
      })
    ).todos;
    ids.todoDocs = todos.find((t: { content: string }) => t.content === 'Quasar docs').id;
    ids.todoTests = todos.find((t: { content: string }) => t.content === 'Quasar tests').id;
    await rest('POST', '/v1/sheets', { title: 'Quasar notes', content: { col1: '<p>plan</p>' } });
    // Last week's Monday and Tuesday, and this week's Monday: inside the 56 days daily_hours covers.
    const monday = new Date(Date.now() - ((new Date().getUTCDay() + 6) % 7) * 86_400_000);
    const day = (offset: number) => new Date(monday.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const [date, hours] of [
      [day(-7), 2],
      [day(-6), 3],
      [day(0), 4],
    ] as const)
      await rest('POST', '/v1/stats?action=worktime', { hours, date });
    ctx = await openBrowser({ viewport: { width: 1280, height: 860 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${s.url}/console/`);
    await page.getByLabel('API key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Stats' }).waitFor();
  });
  beforeClose(() => ctx?.close());

  it('todos: moving a card changes its status (status menu and drag and drop)', async () => {
    await go('todos');
    await page.getByLabel('Status of Quasar docs').selectOption('in_progress');
    await page.locator('[data-status=in_progress]').getByText('Quasar docs').waitFor();
    let todos = (await rest('GET', '/v1/todos?project=quasar')).todos;
    assert.equal(todos.find((t: { id: string }) => t.id === ids.todoDocs).status, 'in_progress');

    await page.locator(`[data-todo-id="${ids.todoTests}"]`).dragTo(page.locator('[data-status=completed]'));
    await page.locator('[data-status=completed]').getByText('Quasar tests').waitFor();
    todos = (await rest('GET', '/v1/todos?project=quasar')).todos;
    assert.equal(todos.find((t: { id: string }) => t.id === ids.todoTests).status, 'completed');

    // An agent's sync and delete show up without a reload (todos.synced / todo.deleted on the event stream).
    const added = (await rest('POST', '/v1/todos', { project: 'quasar', todos: [{ content: 'Quasar release', status: 'pending' }] })).todos;
    await page.locator('[data-status=pending]').getByText('Quasar release').waitFor({ timeout: 4000 });
    await rest('DELETE', `/v1/todos/${added.find((t: { content: string }) => t.content === 'Quasar release').id}`);
    await page.getByText('Quasar release').waitFor({ state: 'detached', timeout: 4000 });
    await shot('todos-board');
  });

  it('knowledge: code is highlighted and the copy button copies it', async () => {
    await go('knowledge');
    await page.getByText('Quasar retry helper').click();
    await page.locator('code.hljs .hljs-keyword').first().waitFor();
    await page.getByRole('button', { name: 'Copy code' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /const retry = async/);
    await shot('knowledge-highlighted');
  });

  it('sessions: search, detail, make a handover; the list updates live', async () => {
    await go('sessions');
    await page.getByRole('link', { name: 'Quasar refactor' }).click();
    await page.getByLabel('Next steps (one per line)').fill('Merge the parser\nWrite the changelog');
    await page.getByLabel('Notes').fill('Parser split is done.');
    await page.getByRole('button', { name: 'Make handover' }).click();
    await page.getByRole('link', { name: 'Handover: Quasar refactor' }).waitFor();
    assert.equal((await rest('GET', '/v1/sheets?q=handover')).sheets.filter((x: { title: string }) => x.title === 'Handover: Quasar refactor').length, 1);
    await shot('session-make-handover');

    await go('sessions');
    await page.getByRole('link', { name: 'Quasar refactor' }).waitFor();
    await rest('POST', '/v1/sessions', { title: 'Live session from an agent', summary: 'x' });
    await page.getByRole('link', { name: 'Live session from an agent' }).waitFor({ timeout: 5000 });
    // Saved again (the Claude Code plugin updates its session record): the list follows session.updated.
    await rest('PATCH', `/v1/sessions/${ids.session}`, { title: 'Quasar refactor, saved again' });
    await page.getByRole('link', { name: 'Quasar refactor, saved again' }).waitFor({ timeout: 5000 });
  });

  it('stats has its own page: Sparks counts and work time by day and by week', async () => {
    await page.getByRole('link', { name: 'Stats' }).click();
    await page.getByRole('img', { name: 'Work hours by day' }).waitFor();
    assert.equal(await page.getByRole('img', { name: 'Work hours by day' }).locator('rect.bar').count(), 28, 'a bar for each of the last 28 days');
    assert.equal(await page.getByRole('img', { name: 'Work hours by day' }).locator('rect.bar:not(.empty)').count(), 3, 'three with work');
    assert.equal(await page.getByRole('img', { name: 'Work hours by week' }).locator('rect.bar:not(.empty)').count(), 2, 'two weeks with work');
    assert.equal(await page.getByTestId('sparks-total').innerText(), '0');
    await shot('stats');
  });

  it('Ctrl+K searches sheets, sessions, knowledge and todos at once, best match first', async () => {
    await go('sheets');
    await page.getByRole('button', { name: 'New sheet' }).waitFor();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Search everything' }).fill('quasar');
    const results = page.getByRole('listbox', { name: 'Results' });
    for (const kind of ['Sheet', 'Session', 'Snippet', 'Todo']) await results.getByText(kind, { exact: true }).first().waitFor();
    await shot('search');
    await page.getByRole('combobox', { name: 'Search everything' }).fill('quasar notes');
    // One ranked search (GET /v1/search): once it answers the whole words, the sheet named by both is first.
    await page.locator('[role=listbox][aria-busy=false]').waitFor();
    await results.getByRole('option').first().getByText('Quasar notes').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/sheets\/sht_/);
    await page.getByRole('textbox', { name: 'col1', exact: true }).getByText('plan').waitFor();

    // A snippet opens on the knowledge page, unfolded; a todo on the board, highlighted.
    const open = async (q: string, title: string) => {
      await page.keyboard.press('Control+k');
      await page.getByRole('combobox', { name: 'Search everything' }).fill(q);
      await page.locator('[role=listbox][aria-busy=false]').waitFor();
      await results.getByRole('option', { name: new RegExp(title) }).click();
    };
    await open('quasar retry helper', 'Quasar retry helper');
    await page.waitForURL(/#\/knowledge\/snp_/);
    await page.locator('details.knowledge.highlighted[open]').getByText('const retry = async').waitFor();
    await open('quasar docs', 'Quasar docs');
    await page.waitForURL(new RegExp(`#/todos/${ids.todoDocs}$`));
    await page.locator(`.todo-card.highlighted[data-todo-id="${ids.todoDocs}"]`).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
