import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';
import { httpClient, ok } from '../mcp-helpers.js';

/**
 * The sheet editor in real headless Chromium: create and edit through the UI, read back over REST;
 * REST writes appear live; conflicts get a banner; history with a diff and restore.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');
const DIST = path.resolve(import.meta.dirname, '../../dist/console');
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

describe('sheet editor in headless Chromium', { skip }, () => {
  let ctx: BrowserContext;
  let page: Page;
  let id: string;
  const pageErrors: string[] = [];
  const rest = (method: string, p: string, body?: unknown, headers?: Record<string, string>) => expect200(s, owner.key, method, p, body, headers);
  const sheet = async () => (await rest('GET', `/v1/sheets/${id}`)).sheet;
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const column = (key: string) => page.getByRole('textbox', { name: key, exact: true });
  const saved = () => page.locator('[data-testid=save-state]', { hasText: /^Saved/ }).waitFor();
  /** Preact sets the value property, not the attribute, so wait on the property. */
  const titleIs = (value: string, timeout?: number) => page.waitForFunction((v) => (document.querySelector('input[name=title]') as HTMLInputElement | null)?.value === v, value, { timeout });

  const {
    s,
    users: { owner },
    beforeClose,
  } = useServer('sqlite', { users: { owner: 'pro' } });
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    ctx = await openBrowser({ viewport: { width: 1280, height: 860 } });
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });
  beforeClose(() => ctx?.close());

  it('signs in by label and creates a sheet with "New sheet" once it has a title', async () => {
    await page.goto(`${s.url}/console/#/sheets`);
    await page.getByLabel('API key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'New sheet' }).click();
    await column('col1').waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Editor test');
    await page.keyboard.press('Control+s');
    await page.waitForURL(/#\/sheets\/sht_/);
    id = decodeURIComponent(page.url().split('#/sheets/')[1]);
    assert.equal((await sheet()).title, 'Editor test');
  });

  it('edits title, folder, tags and a column; Ctrl+S saves with If-Match; REST reads it back', async () => {
    await page.getByLabel('Title', { exact: true }).fill('Editor test');
    await page.getByLabel('Folder').fill('Work');
    await page.getByLabel('Tags').fill('alpha, beta');
    await column('col1').click();
    await page.keyboard.type('Hello from the browser');
    await page.keyboard.press('Control+s');
    await saved();
    const got = await sheet();
    assert.equal(got.title, 'Editor test');
    assert.equal(got.folder, 'Work');
    assert.deepEqual(got.tags, ['alpha', 'beta']);
    assert.match(got.content.col1, /Hello from the browser/);

    await column('col1').press('End');
    await page.keyboard.type(' and autosave');
    await page.locator('[data-testid=save-state]', { hasText: 'Unsaved changes' }).waitFor();
    await saved(); // nobody pressed Save: 2 s of quiet did it
    assert.match((await sheet()).content.col1, /and autosave/);

    await page.getByRole('button', { name: 'Add column' }).click();
    await column('col2').click();
    await page.keyboard.type('Second column');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved();
    assert.match((await sheet()).content.col2, /Second column/);
    await shot('sheet-editor');
  });

  it('shows a REST PUT within 1 s without a reload, keeping unsaved text', async () => {
    const marker = await page.evaluate(() => ((window as any).__sameDocument = Math.random()));
    const v = (await sheet()).version;
    await rest('PUT', `/v1/sheets/${id}`, { title: 'Renamed by an agent', content: { col2: '<p>Agent wrote this</p>' } });
    await titleIs('Renamed by an agent', 1000);
    await column('col2').getByText('Agent wrote this').waitFor({ timeout: 1000 });
    assert.equal(await page.evaluate(() => (window as any).__sameDocument), marker, 'no reload');

    // An MCP agent's edit arrives the same way.
    const mcp = await httpClient(s, owner.key);
    ok(await mcp.callTool({ name: 'update_sheet', arguments: { id, content: { col2: '<p>Written over MCP</p>' } } }));
    await column('col2').getByText('Written over MCP').waitFor({ timeout: 1000 });
    await mcp.close();

    // Unsaved text in col1 survives an agent's edit of col2.
    await column('col1').press('End');
    await page.keyboard.type(' UNSAVED');
    await rest('PUT', `/v1/sheets/${id}`, { content: { col2: '<p>Agent again</p>' } });
    await column('col2').getByText('Agent again').waitFor({ timeout: 1000 });
    assert.match(await column('col1').innerText(), /UNSAVED/);
    await saved();
    const after = await sheet();
    assert.match(after.content.col1, /UNSAVED/);
    assert.match(after.content.col2, /Agent again/, "the person's save kept the agent's column");
    assert.ok(after.version >= v + 3);

    // Both changed the same column: a banner, the person's text stays.
    await column('col1').press('End');
    await page.keyboard.type(' MINE');
    await rest('PUT', `/v1/sheets/${id}`, { content: { col1: '<p>Theirs</p>' } });
    await page.locator('[data-testid=clash-banner]').waitFor();
    assert.match(await column('col1').innerText(), /MINE/);
    await shot('sheet-live-clash');
    await page.getByRole('button', { name: 'Keep mine' }).click();
    await saved();
    assert.match((await sheet()).content.col1, /MINE/);
  });

  it('a stale save gets the conflict banner: keep mine as a new version, or reload theirs', async () => {
    // Without the live stream the page cannot know about the agent's write, so its save is stale.
    await page.route('**/v1/events/stream', (r) => r.abort());
    await page.reload();
    await column('col1').waitFor();
    await rest('PUT', `/v1/sheets/${id}`, { title: 'Agent title' });
    await page.getByLabel('Title', { exact: true }).fill('Person title');
    await page.keyboard.press('Control+s');
    const banner = page.locator('[data-testid=conflict-banner]');
    await banner.waitFor();
    assert.match(await banner.innerText(), /changed elsewhere/);
    await shot('sheet-conflict');
    await page.getByRole('button', { name: 'Keep mine as a new version' }).click();
    await saved();
    assert.equal((await sheet()).title, 'Person title');

    await rest('PUT', `/v1/sheets/${id}`, { title: 'Agent wins' });
    await page.getByLabel('Title', { exact: true }).fill('Lost title');
    await page.getByRole('button', { name: 'Save' }).click();
    await banner.waitFor();
    await page.getByRole('button', { name: 'Reload theirs' }).click();
    await titleIs('Agent wins');
    await page.unroute('**/v1/events/stream');
  });

  it('shows history with a readable diff and restores an earlier version', async () => {
    await page.goto(`${s.url}/console/#/sheets/${id}/revisions`);
    await page.getByRole('button', { name: 'Restore version 2' }).waitFor();
    await page.getByLabel('From version').selectOption('2');
    const diff = page.locator('[data-testid=diff]');
    await diff.locator('del', { hasText: 'Editor' }).first().waitFor();
    assert.match(await diff.locator('[data-field=Title] ins').first().innerText(), /Agent/);
    await shot('sheet-history');
    await page.getByRole('button', { name: 'Restore version 2' }).click();
    await page.click('.modal >> text=Restore');
    await page.locator('tr[data-version]').first().waitFor();
    await page.waitForFunction(() => !document.querySelector('.modal'));
    const restored = await sheet();
    assert.equal(restored.title, 'Editor test');
  });

  it('trash, restore and permanent delete, each destructive step confirmed', async () => {
    await page.goto(`${s.url}/console/#/sheets/${id}`);
    await page.getByRole('button', { name: 'Move to trash' }).click();
    await page.click('.modal >> text=Move to trash');
    await page.getByRole('button', { name: 'Restore' }).waitFor();
    assert.ok((await sheet()).trashedAt);
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('button', { name: 'Move to trash' }).waitFor();
    assert.equal((await sheet()).trashedAt, null);
    await page.getByRole('button', { name: 'Move to trash' }).click();
    await page.click('.modal >> text=Move to trash');
    await page.getByRole('button', { name: 'Delete forever' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel'); // focus starts on Cancel
    await page.keyboard.press('Escape');
    await page.locator('.modal').waitFor({ state: 'detached' });
    assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: owner.key })).status, 200, 'Escape keeps it');
    await page.getByRole('button', { name: 'Delete forever' }).click();
    await page.click('.modal >> text=Delete forever');
    await page.waitForURL(/#\/sheets$/);
    assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: owner.key })).status, 404);
    assert.deepEqual(pageErrors, []);
  });

  it('keeps a table in a column through an edit and a save', async () => {
    const table = '<table><thead><tr><th>Name</th><th>Status</th></tr></thead>' + '<tbody><tr><td>alpha</td><td>done</td></tr><tr><td>beta</td><td>open</td></tr></tbody></table>';
    const created = (await rest('POST', '/v1/sheets', { title: 'Table sheet', content: { col1: `<p>Notes</p>${table}` } })).sheet;
    await page.goto(`${s.url}/console/#/sheets/${created.id}`);
    await column('col1').locator('td', { hasText: 'beta' }).waitFor();
    await column('col1').getByText('Notes').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' typed here');
    await column('col1').locator('td', { hasText: 'open' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' now');
    await page.locator('[data-testid=save-state]', { hasText: 'Unsaved changes' }).waitFor();
    await page.keyboard.press('Control+s');
    await saved();

    const html: string = (await rest('GET', `/v1/sheets/${created.id}`)).sheet.content.col1;
    assert.match(html, /<p>Notes typed here<\/p>/);
    const text = (cell: string) => cell.replace(/<[^>]+>/g, '').trim();
    const rows = [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1].matchAll(/<(th|td)[^>]*>([\s\S]*?)<\/\1>/g)].map((c) => `${c[1]}:${text(c[2])}`));
    assert.deepEqual(
      rows,
      [
        ['th:Name', 'th:Status'],
        ['td:alpha', 'td:done'],
        ['td:beta', 'td:open now'],
      ],
      html,
    );
    assert.equal((html.match(/<table/g) ?? []).length, 1, html);
    assert.deepEqual(pageErrors, []);
  });

  it('all the JavaScript the console can load stays under 250,000 bytes gzipped', () => {
    const js = fs.readdirSync(path.join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
    const total = js.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(DIST, 'assets', f)), { level: 9 }).length, 0);
    assert.ok(js.length > 0);
    assert.ok(total < 250_000, `console JavaScript is ${total} bytes gzipped`);
  });
});
