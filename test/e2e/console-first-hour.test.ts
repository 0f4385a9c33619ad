import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { dialects, expect200, startServer, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

/**
 * A new user's first hour in the console (issue 36, point 5), measured in real Chromium: where sign-in
 * lands, the navigation's order and size, chart sizes, the new key's box, "New sheet", the editor's
 * toolbar and placeholder, who made each version, and the Sparks page.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const NAV = ['sheets', 'sessions', 'briefing', 'knowledge', 'todos', 'sparks', 'stats', 'account', 'apps', 'webhooks'];

describe('a first hour in the console, in headless Chromium', { skip }, () => {
  let s: TestServer;
  let ctx: BrowserContext;
  let page: Page;
  let owner: { key: string; userId: string; personalWorkspace: string };
  let sheetId: string;
  const pageErrors: string[] = [];
  const rest = (method: string, p: string, body?: unknown, key = owner.key) => expect200(s, key, method, p, body);
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const go = async (hash: string) => {
    await page.goto(`${s.url}/console/#/${hash}`);
    await page.reload();
  };
  /** The /v1 requests the page sends while `fn` runs, as "METHOD /path". */
  const requestsDuring = async (fn: () => Promise<void>) => {
    const sent: string[] = [];
    const on = (r: Request) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/v1/')) sent.push(`${r.method()} ${u.pathname}`);
    };
    page.on('request', on);
    try {
      await fn();
    } finally {
      page.off('request', on);
    }
    return sent;
  };
  const box = async (selector: string) => {
    const b = await page.locator(selector).first().boundingBox();
    assert.ok(b, `${selector} has a box`);
    return b;
  };

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    s = await startServer('sqlite');
    owner = await s.user('pro');
    // Three days of work a week apart, as in the issue: the days between must still get their bars.
    for (const [date, hours] of [
      [day(-7), 2],
      [day(-1), 3.5],
      [day(0), 1.25],
    ] as const)
      await rest('POST', '/v1/stats?action=worktime', { hours, date });
    for (let i = 1; i <= 6; i++) await rest('POST', '/v1/api-keys', { name: `old key ${i}` });
    sheetId = (await rest('POST', '/v1/sheets', { title: 'Meeting notes', content: { col1: '<p>We ship on Friday. Alice writes the docs.</p>', col2: '' } })).id;
    ctx = await openBrowser({ viewport: { width: 1280, height: 860 } });
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });
  after(async () => {
    await ctx?.close();
    await s?.close();
  });

  it('after sign-in opens Sheets; the work comes first in one header row at 1280 px', async () => {
    await page.goto(`${s.url}/console/`);
    await page.getByLabel('API key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Meeting notes' }).waitFor();
    assert.equal(await page.locator('main h1').first().innerText(), 'Sheets');

    const links = page.locator('header nav a');
    assert.deepEqual(
      await links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      NAV.map((p) => `#/${p}`),
    );
    assert.equal(await page.locator('header nav a.active').innerText(), 'Sheets');
    for (const width of [1280, 1100]) {
      await page.setViewportSize({ width, height: 860 });
      const boxes = await links.evaluateAll((as) => as.map((a) => a.getBoundingClientRect().toJSON() as DOMRect));
      const tops = new Set(boxes.map((b) => Math.round(b.top)));
      assert.equal(tops.size, 1, `every link on one row at ${width} px (tops ${[...tops].join(', ')})`);
      const header = await box('header.top');
      assert.ok(header.height <= 60, `header is one row at ${width} px: ${header.height} px high`);
      const find = await box('header.top > button:has-text("Find")');
      assert.ok(boxes[0].left >= 0 && boxes.at(-1)!.right <= find.x, `the links end before the Find button at ${width} px`);
      const who = await box('header .who');
      assert.ok(who.x + who.width <= width, `nothing runs off the right edge at ${width} px`);
      if (width === 1280) await shot('first-screen');
    }
  });

  it('at phone width the navigation is a menu', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const header = await box('header.top');
    assert.ok(header.height <= 60, `header stays one row: ${header.height} px`);
    assert.equal(await page.locator('header nav a').first().isVisible(), false, 'links are folded away');
    const menu = page.getByRole('button', { name: 'Menu' });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await menu.click();
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('header nav a').first().isVisible(), false, 'Escape closes the menu');
    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    const boxes = await page.locator('header nav a').evaluateAll((as) => as.map((a) => a.getBoundingClientRect().toJSON() as DOMRect));
    for (const b of boxes) assert.ok(b.left >= 0 && b.right <= 390 && b.height >= 36, `a link fits and is big enough to tap: ${JSON.stringify(b)}`);
    for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i].top > boxes[i - 1].top, 'one link per line, in order');
    assert.ok(boxes.at(-1)!.bottom <= 844, 'the whole menu is on the screen');
    await shot('phone-menu');
    await page.getByRole('link', { name: 'Stats' }).click();
    await page.getByRole('heading', { name: 'Stats', level: 1 }).waitFor();
    assert.equal(await page.locator('header nav a').first().isVisible(), false, 'choosing a page closes the menu, in the render that shows the page');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `no sideways scrolling at 390 px (${overflow} px)`);
  });

  it('Stats charts keep one readable size at any width, a bar for every day, all within two screens', async () => {
    const measure = async () => {
      const chart = page.getByRole('img', { name: 'Work hours by day' });
      await chart.waitFor();
      return chart.evaluate((svg) => {
        const bars = [...svg.querySelectorAll('rect.bar')].map((r) => r.getBoundingClientRect());
        const texts = [...svg.querySelectorAll('text')].map((t) => ({ size: parseFloat(getComputedStyle(t).fontSize), height: t.getBoundingClientRect().height }));
        return {
          days: [...svg.querySelectorAll('g[data-key]')].map((g) => g.getAttribute('data-key')!),
          filled: svg.querySelectorAll('rect.bar:not(.empty)').length,
          barWidth: bars[0].width,
          maxBarHeight: Math.max(...bars.map((b) => b.height)),
          svgHeight: svg.getBoundingClientRect().height,
          maxFont: Math.max(...texts.map((t) => t.size)),
          maxTextHeight: Math.max(...texts.map((t) => t.height)),
          pageHeight: document.documentElement.scrollHeight,
          screen: innerHeight,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
    };
    const sizes = [];
    for (const [width, height] of [
      [390, 844],
      [1280, 860],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width, height });
      await go('stats');
      const m = await measure();
      assert.equal(m.days.length, 28, 'a bar per day for four weeks');
      for (let i = 1; i < m.days.length; i++) assert.equal(Date.parse(m.days[i]) - Date.parse(m.days[i - 1]), DAY, `days follow each other: ${m.days[i - 1]}, ${m.days[i]}`);
      assert.equal(m.days.at(-1), day(0));
      assert.equal(m.filled, 3, 'three days with work, the rest empty bars');
      assert.ok(m.maxFont <= 14 && m.maxTextHeight <= 20, `axis labels and numbers at most 14 px (${m.maxFont} px, boxes ${m.maxTextHeight} px)`);
      assert.ok(m.maxBarHeight <= 100 && m.svgHeight <= 140, `bars ${m.maxBarHeight} px, chart ${m.svgHeight} px`);
      assert.ok(m.pageHeight <= 2 * m.screen, `the Stats page is ${m.pageHeight} px at ${width}x${height}: within two screens`);
      assert.ok(m.overflow <= 1, `the page does not scroll sideways at ${width} px`);
      const today = await page
        .getByRole('img', { name: 'Work hours by day' })
        .locator(`g[data-key="${day(0)}"] rect`)
        .boundingBox();
      assert.ok(today && today.x >= 0 && today.x + today.width <= width, 'today is in view');
      sizes.push(m.barWidth);
      // The screen as a phone shows it (a full-page capture would cut a classic scrollbar's width off the right).
      if (width === 390) await page.screenshot({ path: path.join(SHOTS, 'phone-stats.png') });
    }
    assert.deepEqual(new Set(sizes).size, 1, `bars are the same width at every window width (${sizes.join(', ')} px)`);
  });

  it('charts are only on Stats: the API keys page asks for no stats, and a new key appears in view', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const sent = await requestsDuring(async () => {
      await go('account');
      await page.locator('tr[data-key-id]').nth(6).waitFor();
    });
    assert.ok(sent.includes('GET /v1/api-keys'), sent.join());
    assert.equal(sent.filter((r) => r.includes('/stats')).length, 0, `no stats request: ${sent.join()}`);
    assert.equal(await page.locator('svg.chart').count(), 0);
    assert.equal(await page.locator('main h1').innerText(), 'API keys');

    await page.getByLabel('Key name').fill('phone key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const once = page.getByTestId('shown-once');
    await once.waitFor();
    const b = (await page.locator('.once').boundingBox())!;
    const header = (await page.locator('header.top').boundingBox())!;
    assert.ok(b.y >= header.y + header.height && b.y + b.height <= 844, `the one-time box is in view: ${JSON.stringify(b)}`);
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('"New sheet" stores nothing until something is written; the editor has a placeholder and a toolbar', async () => {
    await page.setViewportSize({ width: 1280, height: 860 });
    await go('sheets');
    const before = (await rest('GET', '/v1/sheets')).total;
    const idle = await requestsDuring(async () => {
      await page.getByRole('button', { name: 'New sheet' }).click();
      await page.getByRole('textbox', { name: 'col1', exact: true }).waitFor();
      await page.waitForTimeout(3000); // past the 2 s autosave
      await page.getByRole('link', { name: '← All sheets' }).click();
      await page.getByRole('button', { name: 'New sheet' }).waitFor();
      await page.waitForTimeout(300);
    });
    assert.deepEqual(
      idle.filter((r) => !r.startsWith('GET ')),
      [],
      'opening and leaving a new sheet sends no write',
    );
    assert.equal((await rest('GET', '/v1/sheets')).total, before, 'and stores no sheet');

    await page.getByRole('button', { name: 'New sheet' }).click();
    const col1 = page.getByRole('textbox', { name: 'col1', exact: true });
    await col1.waitFor();
    const placeholder = () => col1.evaluate((el) => getComputedStyle(el, '::before').content);
    assert.equal(await placeholder(), '"Write here…"');
    assert.equal(await page.locator('input[name=title]').getAttribute('placeholder'), 'Untitled');
    const toolbar = page.getByRole('toolbar', { name: 'Format col1' });
    assert.deepEqual(await toolbar.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label'))), ['Bold', 'Italic', 'Heading', 'Bulleted list', 'Code', 'Link']);
    const tb = (await toolbar.boundingBox())!;
    const ed = (await col1.boundingBox())!;
    assert.ok(tb.height <= 36, `the toolbar is small: ${tb.height} px`);
    assert.ok(tb.y + tb.height <= ed.y + 1, 'the toolbar sits above the text');
    // One Tab stop; arrows move along it.
    assert.deepEqual(await toolbar.getByRole('button').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).tabIndex)), [0, -1, -1, -1, -1, -1]);
    await toolbar.getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Italic');
    await page.keyboard.press('End');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Link');
    await col1.click();
    await shot('sheet-new');

    const writes = await requestsDuring(async () => {
      await page.getByRole('button', { name: 'Heading' }).click();
      await page.keyboard.type('Launch plan');
      assert.equal(await page.getByRole('button', { name: 'Heading' }).getAttribute('aria-pressed'), 'true');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type('ship it');
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type(' and ');
      await page.getByRole('button', { name: 'Italic' }).click();
      await page.keyboard.type('calmly');
      await page.getByRole('button', { name: 'Italic' }).click();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Code' }).click();
      await page.keyboard.type('npm start');
      await page.getByRole('button', { name: 'Code' }).click();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Bulleted list' }).click();
      await page.keyboard.type('first step');
      await page.keyboard.press('Enter');
      await page.keyboard.type('see ');
      await page.getByRole('button', { name: 'Link' }).click();
      await page.getByLabel('Link address').fill('example.com/docs');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#\/sheets\/sht_/);
      await page.locator('[data-testid=save-state]', { hasText: /^Saved/ }).waitFor();
      await page.keyboard.press('Control+s');
      await page.waitForTimeout(300);
    });
    assert.equal(writes.filter((r) => r === 'POST /v1/sheets').length, 1, `one create: ${writes.join()}`);
    assert.notEqual(await placeholder(), '"Write here…"', 'the placeholder goes once there is text');
    const id = decodeURIComponent(page.url().split('#/sheets/')[1]);
    await page.locator('[data-testid=save-state]', { hasText: /^Saved/ }).waitFor();
    await page.keyboard.press('Control+s');
    await page.waitForTimeout(500);
    const stored = (await rest('GET', `/v1/sheets/${id}`)).sheet;
    assert.equal(stored.title, 'Untitled');
    const html = stored.content.col1;
    assert.match(html, /<h2>Launch plan<\/h2>/);
    assert.match(html, /<strong>ship it<\/strong> and <em>calmly<\/em>/);
    assert.match(html, /<code>npm start<\/code>/);
    assert.match(html, /<ul><li><p>first step<\/p><\/li><li><p>see <a [^>]*href="https:\/\/example\.com\/docs"[^>]*>example\.com\/docs<\/a>/);
    assert.equal((await rest('GET', '/v1/sheets')).total, before + 1);
  });

  it('History names who made each version: the console with its key, or the API key', async () => {
    const agentKey = (await rest('POST', '/v1/api-keys', { name: 'agent key' })).api_key;
    await go(`sheets/${sheetId}`);
    await page.getByRole('textbox', { name: 'col1', exact: true }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Bob reviews.');
    await page.keyboard.press('Control+s');
    await page.locator('[data-testid=save-state]', { hasText: /^Saved · version 2/ }).waitFor();
    await rest('PUT', `/v1/sheets/${sheetId}`, { title: 'Meeting notes (agent)' }, agentKey);
    await go(`sheets/${sheetId}/revisions`);
    const by = (v: number) => page.locator(`tr[data-version="${v}"] td.by`).innerText();
    await page.locator('tr[data-version="1"]').waitFor();
    assert.equal(await by(3), 'agent key (API key)');
    assert.equal(await by(2), 'console (default)');
    assert.equal(await by(1), 'default (API key)');
  });

  it('the Sparks page runs a Spark on a sheet column and shows the result', async () => {
    await go(`sparks/${sheetId}`);
    await page.getByTestId('spark-input').getByText('We ship on Friday').waitFor();
    const sheetSelect = page.getByLabel('Sheet', { exact: true });
    assert.equal(await sheetSelect.inputValue(), sheetId);
    const modelSparks = await page.locator('select[name=spark] option[disabled]').count();
    assert.ok(modelSparks > 0, 'without an AI provider the model Sparks are offered but disabled');
    await page.getByLabel('Spark', { exact: true }).selectOption('spk_word_count');
    const content = (await rest('GET', `/v1/sheets/${sheetId}`)).sheet.content.col1;
    let body: Record<string, unknown> = {};
    const sent = await requestsDuring(async () => {
      page.once('request', (r) => r.url().endsWith('/v1/spark') && (body = r.postDataJSON()));
      await page.getByRole('button', { name: 'Run Spark' }).click();
      await page.getByTestId('spark-result').waitFor();
    });
    assert.deepEqual(sent, ['POST /v1/spark']);
    assert.deepEqual(body, { spark_id: 'spk_word_count', content, sheet_id: sheetId });
    const expected = (await rest('POST', '/v1/spark', { spark_id: 'spk_word_count', content })).result;
    assert.equal(await page.getByTestId('spark-result').innerText(), expected);
    assert.match(expected, /^Words: 10\n/);
    const run = (await s.events('spark.executed')).find((e) => e.data.sheet_id === sheetId);
    assert.equal(run?.data.spark_id, 'spk_word_count', 'the run is counted against the sheet');

    await page.getByLabel('Column', { exact: true }).selectOption('col2');
    assert.equal(await page.getByTestId('spark-input').innerText(), 'This column is empty.');
    assert.equal(await page.getByRole('button', { name: 'Run Spark' }).isDisabled(), true);
    await page.getByLabel('Column', { exact: true }).selectOption('col1');
    await shot('sparks');
    assert.deepEqual(pageErrors, []);
  });
});

for (const dialect of dialects()) {
  describe(`revisions name who made each version [${dialect}]`, () => {
    const { s } = useServer(dialect);

    it('a console write is recorded with the key the session was opened with; the current version says who made it', async () => {
      const owner = await s.user('pro');
      const keyId = (await expect200(s, owner.key, 'GET', '/v1/api-keys')).api_keys[0].id;
      const agent = await expect200(s, owner.key, 'POST', '/v1/api-keys', { name: 'agent key' });
      const signIn = await s.req('POST', '/console/session', { body: { api_key: owner.key }, headers: { 'x-console': '1' } });
      const cookie = /sw_console=([^;]*)/.exec(signIn.headers.get('set-cookie') ?? '')![1];
      const asConsole = { cookie: `sw_console=${cookie}`, 'x-console': '1' };
      const created = await s.req('POST', '/v1/sheets', { body: { title: 'By whom' }, headers: asConsole });
      assert.equal(created.status, 200);
      const id = created.body.id;
      await expect200(s, agent.api_key, 'PUT', `/v1/sheets/${id}`, { title: 'By the agent' });

      const list = await expect200(s, owner.key, 'GET', `/v1/sheets/${id}/revisions`);
      assert.deepEqual(
        list.revisions.map((r: { version: number; actor: unknown }) => [r.version, r.actor]),
        [[1, { type: 'console', id: keyId, name: 'default', user_id: owner.userId }]],
      );
      assert.deepEqual(list.current, { version: 2, changes: ['title'], updatedAt: list.current.updatedAt, actor: { type: 'api_key', id: agent.id, name: 'agent key', user_id: owner.userId } });

      const byConsole = await s.req('PUT', `/v1/sheets/${id}`, { body: { title: 'Back in the console' }, headers: asConsole });
      assert.equal(byConsole.status, 200);
      const after = await expect200(s, owner.key, 'GET', `/v1/sheets/${id}/revisions`);
      assert.deepEqual(after.current.actor, { type: 'console', id: keyId, name: 'default', user_id: owner.userId });
      assert.equal(after.revisions[0].actor.name, 'agent key');
    });
  });
}
