import { execFileSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

/**
 * The console by keyboard alone and for assistive technology, in real headless Chromium: a whole
 * sheet's life with Tab, Enter, Escape and shortcuts only; every focusable control on every page
 * has an accessible name (as Chromium's accessibility tree computes it); a restore from the trash
 * reaches an open list live.
 */
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

/** What a person hears for the focused element, close enough to tell controls apart. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    const labelled = el.getAttribute('aria-labelledby');
    const label = el.getAttribute('aria-label') ?? (labelled ? document.getElementById(labelled)?.textContent : undefined) ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent;
    return (label ?? '').replace(/\s+/g, ' ').trim();
  });

/** Focus moves back once the dialog has gone (the cleanup may run a moment after the removal). */
async function focusLandsOn(page: Page, name: string, message: string) {
  for (let i = 0; i < 40 && (await focusedName(page)) !== name; i++) await page.waitForTimeout(25);
  assert.equal(await focusedName(page), name, message);
}

const insideModal = (page: Page) => page.evaluate(() => !!document.activeElement?.closest('[role=dialog][aria-modal=true]'));

describe('console by keyboard, with an accessible name on every control', { skip }, () => {
  let ctx: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  const pageErrors: string[] = [];
  const ids: Record<string, string> = {};
  const rest = (method: string, p: string, body?: unknown) => expect200(s, owner.key, method, p, body);

  /** Presses Tab (Shift+Tab with `back`) until the focused control's name is `name`; fails after `max` presses. */
  async function tabTo(name: string, { back = false, max = 80 } = {}) {
    const seen: string[] = [];
    for (let i = 0; i < max; i++) {
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      const now = await focusedName(page);
      if (now === name) return;
      seen.push(now);
    }
    assert.fail(`Tab never reached "${name}"; it went through: ${seen.join(' | ')}`);
  }

  const {
    s,
    users: { owner },
    beforeClose,
  } = useServer('sqlite', { users: { owner: 'pro' } });
  before(async () => {
    const sheet = await rest('POST', '/v1/sheets', { title: 'Audit sheet', content: { col1: '<p>one</p>', col2: '<p>two</p>' }, tags: ['a'] });
    ids.sheet = sheet.id;
    await rest('PUT', `/v1/sheets/${sheet.id}`, { title: 'Audit sheet v2' });
    ids.session = (await rest('POST', '/v1/sessions', { title: 'Audit session', summary: 'Looked at names.', project: 'a11y' })).id;
    await rest('POST', '/v1/sessions/handover', { session_id: ids.session, next_steps: ['Check dialogs'], notes: 'n' });
    await rest('POST', '/v1/knowledge?type=solutions', { title: 'Audit solution', error: 'E', content: 'fix it', language: 'bash' });
    await rest('POST', '/v1/knowledge?type=snippets', { title: 'Audit snippet', content: 'const x = 1;', language: 'js' });
    await rest('POST', '/v1/todos', { project: 'a11y', todos: [{ content: 'Audit todo', status: 'pending' }] });
    await rest('POST', '/v1/webhooks', { url: 'https://example.com/hook', events: ['sheet.created'] });
    await rest('POST', '/v1/stats?action=worktime', { hours: 2, date: new Date().toISOString().slice(0, 10) });

    ctx = await openBrowser({ viewport: { width: 1280, height: 860 } });
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
    cdp = await ctx.newCDPSession(page);
  });
  beforeClose(() => ctx?.close());

  it('signs in, makes, titles, saves, finds, opens and trashes a sheet with the keyboard alone', async () => {
    await page.goto(`${s.url}/console/#/sheets`);
    await page.locator('input[name=api_key]').waitFor();
    await tabTo('API key');
    await page.keyboard.type(owner.key);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'New sheet' }).waitFor();

    await tabTo('New sheet');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/sheets\/new$/);
    await tabTo('Title');
    await page.keyboard.type('Keyboard sheet plan');
    await page.keyboard.press('Control+s');
    await page.waitForURL(/#\/sheets\/sht_/);
    const id = decodeURIComponent(page.url().split('#/sheets/')[1]);
    await page.locator('[data-testid=save-state]', { hasText: /^Saved · version 1/ }).waitFor();
    assert.equal((await rest('GET', `/v1/sheets/${id}`)).sheet.title, 'Keyboard sheet plan');

    // Away to another page, then back to the sheet through Ctrl+K.
    await tabTo('API keys', { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    assert.equal(await focusedName(page), 'API keys');

    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Search everything' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
    assert.ok(await page.getByRole('dialog', { name: 'Search everything' }).isVisible());
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Search everything' }).waitFor({ state: 'detached' });
    await focusLandsOn(page, 'API keys', 'Escape closes the search and focus goes back');

    await page.keyboard.press('Control+k');
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
    await page.keyboard.type('sheet');
    const results = page.getByRole('listbox', { name: 'Results' });
    // Results for what was typed so far may show first; arrows are for the answer to the whole word.
    await page.locator('[role=listbox][aria-busy=false]').waitFor();
    await results.getByRole('option', { name: /Audit sheet v2/ }).waitFor();
    await results.getByRole('option', { name: /Keyboard sheet plan/ }).waitFor();
    // The highlighted option is announced through aria-activedescendant while focus stays in the box.
    const active = async () => {
      const ref = await box.getAttribute('aria-activedescendant');
      assert.ok(ref, 'a highlighted option');
      return { text: (await page.locator(`#${ref}`).innerText()).trim(), selected: await page.locator(`#${ref}`).getAttribute('aria-selected') };
    };
    const names = await results.getByRole('option').allInnerTexts();
    const target = names.findIndex((n) => n.includes('Keyboard sheet plan'));
    assert.ok(target >= 0, names.join(' | '));
    assert.equal((await active()).text, names[0].trim());
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await active(), { text: names[1].trim(), selected: 'true' });
    for (let i = 1; i !== target; i += target > i ? 1 : -1) await page.keyboard.press(target > i ? 'ArrowDown' : 'ArrowUp');
    assert.deepEqual(await active(), { text: names[target].trim(), selected: 'true' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'combobox');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`#/sheets/${id}$`));
    await page.getByRole('dialog', { name: 'Search everything' }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => (document.querySelector('input[name=title]') as HTMLInputElement | null)?.value === 'Keyboard sheet plan');

    // The confirm dialog: focus starts on Cancel, stays inside while open, Escape cancels and gives focus back.
    await tabTo('Move to trash');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Move to trash' }).waitFor();
    // The dialog moves focus once it has rendered: poll, as for the other focus moves.
    await focusLandsOn(page, 'Cancel', 'focus starts on Cancel');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusLandsOn(page, 'Move to trash', 'focus returns to the button that opened it');
    assert.equal((await rest('GET', `/v1/sheets/${id}`)).sheet.trashedAt, null, 'Escape trashed nothing');

    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Move to trash' }).waitFor();
    await focusLandsOn(page, 'Cancel', 'focus starts on Cancel again');
    for (const expected of ['Move to trash', 'Cancel', 'Move to trash']) {
      await page.keyboard.press('Tab');
      assert.equal(await focusedName(page), expected);
      assert.ok(await insideModal(page), 'Tab stays inside the open dialog');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Restore' }).waitFor();
    assert.ok((await rest('GET', `/v1/sheets/${id}`)).sheet.trashedAt, 'trashed through the dialog');
    assert.deepEqual(pageErrors, []);
  });

  it('a sheet trashed and restored over REST leaves and comes back to an open Sheets list without a reload', async () => {
    const { id } = await rest('POST', '/v1/sheets', { title: 'Boomerang', content: { col1: '<p>b</p>' } });
    await page.goto(`${s.url}/console/#/sheets`);
    const link = page.getByRole('link', { name: 'Boomerang' });
    await link.waitFor();
    const marker = await page.evaluate(() => ((window as any).__sameDocument = Math.random()));
    await rest('DELETE', `/v1/sheets/${id}`);
    await link.waitFor({ state: 'detached', timeout: 3000 });
    await rest('POST', `/v1/sheets/${id}/restore`);
    await link.waitFor({ timeout: 3000 });
    assert.equal(await page.evaluate(() => (window as any).__sameDocument), marker, 'no reload');
    assert.deepEqual(pageErrors, []);
  });

  /** Focusable nodes of Chromium's accessibility tree with no name (or only a placeholder), described for the failure message. */
  async function unnamedControls(where: string): Promise<string[]> {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const bad: string[] = [];
    for (const n of nodes) {
      if (n.ignored) continue;
      const focusable = n.properties?.some((p) => p.name === 'focusable' && p.value.value === true);
      const role = String(n.role?.value ?? '');
      // The document itself and plain containers Chromium makes focusable (scrollers) are not controls.
      if (!focusable || ['RootWebArea', 'WebArea', 'generic', 'none', 'group'].includes(role)) continue;
      // A placeholder is not a label: it disappears as soon as something is typed.
      const from = n.name?.sources?.find((src) => src.value && !src.superseded);
      if (String(n.name?.value ?? '').trim() && from?.type !== 'placeholder') continue;
      let html = '';
      if (n.backendDOMNodeId) {
        const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: n.backendDOMNodeId });
        const r = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId!, functionDeclaration: 'function () { return this.outerHTML.slice(0, 160); }', returnByValue: true });
        html = r.result.value;
      }
      bad.push(`${where}: ${role} ${html}`);
    }
    return bad;
  }

  async function visit(hash: string) {
    await page.goto(`${s.url}/console/#/${hash}`);
    await page.reload();
    await page.locator('main h1, main .card').first().waitFor();
    await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading'));
    await page.waitForTimeout(300); // lists arrive in a request or two after the heading
  }

  it('every focusable control on every page (and in every dialog) has an accessible name', async () => {
    await cdp.send('Accessibility.enable');
    await cdp.send('DOM.enable');
    const bad: string[] = [];
    const nav = await page.locator('header nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!.replace(/^#\//, '')));
    assert.ok(nav.length >= 8, nav.join());
    const checked: string[] = [];
    for (const hash of [...nav, `sheets/${ids.sheet}`, `sheets/${ids.sheet}/revisions`, `sessions/${ids.session}`]) {
      await visit(hash);
      if (hash === 'webhooks') await page.getByRole('button', { name: 'Deliveries' }).first().press('Enter');
      if (hash === 'knowledge') for (const summary of await page.locator('details summary').all()) await summary.press('Enter');
      bad.push(...(await unnamedControls(hash)));
      checked.push(hash);
    }
    // Sheets list with the trash shown; a confirm dialog; the Ctrl+K dialog with results.
    await visit('sheets');
    await page.getByRole('checkbox', { name: 'Trash' }).press('Space');
    await page.getByRole('link', { name: 'Keyboard sheet plan' }).waitFor();
    bad.push(...(await unnamedControls('sheets (trash)')));
    await visit(`sheets/${ids.sheet}`);
    await page.getByRole('button', { name: 'Move to trash' }).press('Enter');
    await page.getByRole('dialog', { name: 'Move to trash' }).waitFor();
    bad.push(...(await unnamedControls('confirm dialog')));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Move to trash' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Control+k');
    // Typed before the box has focus, the first letters would be lost (a search for "dit" finds nothing).
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
    await page.keyboard.type('audit');
    await page.locator('[role=listbox][aria-busy=false]').waitFor();
    await page.getByRole('option', { name: /Audit solution/ }).waitFor();
    bad.push(...(await unnamedControls('Ctrl+K dialog')));
    await page.keyboard.press('Escape');

    assert.deepEqual(bad, [], `controls without an accessible name (checked ${checked.join(', ')})`);
    assert.deepEqual(pageErrors, []);
  });
});
