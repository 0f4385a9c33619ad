import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';
import { startReceiver, webhookEnv, type Receiver } from '../webhooks-helpers.js';

/**
 * The web console in real headless Chromium (Debian's /usr/bin/chromium, never a downloaded browser),
 * driven by playwright-core. Screenshots of every page land in docs/screenshots/.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');
const XSS_HTML = '<p>Before the image</p><img src=x onerror=alert(1)><p>After the image</p>';

const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

describe('web console in headless Chromium', { skip }, () => {
  let receiver: Receiver;
  let ctx: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  const ids: Record<string, string> = {};
  const api = async (method: string, p: string, body?: unknown) => {
    const r = await s.req(method, p, { key: owner.key, body });
    assert.ok(r.status === 200, `${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const go = async (hash: string, ready: string) => {
    await page.goto(`${s.url}/console/#/${hash}`);
    await page.reload(); // a hash-only navigation would keep the page's loaded data
    await page.waitForSelector(ready);
  };

  const {
    s,
    users: { owner },
    beforeClose,
  } = useServer('sqlite', { env: webhookEnv(), worker: true, users: { owner: 'pro' } });
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    receiver = await startReceiver();
    await seed();
    ctx = await openBrowser({ viewport: { width: 1280, height: 860 } });
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });
  beforeClose(() => ctx?.close());
  after(async () => {
    await receiver?.close();
  });

  async function seed() {
    ids.xss = (await api('POST', '/v1/sheets', { title: 'Untrusted HTML', content: { col1: XSS_HTML, col2: '<h3>Notes</h3><ul><li>one</li><li><b>two</b></li></ul>' }, tags: ['security'] })).id;
    await api('POST', '/v1/sheets', { title: 'Release checklist', content: { col1: '<ol><li>Tag</li><li>Ship</li></ol>' }, folder: 'Work' });
    const session = await api('POST', '/v1/sessions', { title: 'Console work', summary: 'Built the console pages.', project: 'sheet-workspace', files_changed: ['console/src/main.tsx'] });
    await api('POST', '/v1/sessions/handover', { session_id: session.id, next_steps: ['Write the browser tests', 'Take screenshots'], notes: 'Chromium runs headless.' });
    ids.session = session.id;
    await api('POST', '/v1/knowledge?type=solutions', { title: 'EADDRINUSE on start', error: 'listen EADDRINUSE :::8787', content: 'Set PORT to a free port.', language: 'bash', tags: ['node'] });
    await api('POST', '/v1/knowledge?type=snippets', { title: 'Sleep helper', content: 'const sleep = (ms) => new Promise((r) => setTimeout(r, ms));', language: 'js' });
    await api('POST', '/v1/todos', {
      project: 'sheet-workspace',
      todos: [
        { content: 'Write docs', status: 'pending', priority: 'high' },
        { content: 'Browser tests', status: 'in_progress' },
        { content: 'Export module', status: 'completed' },
      ],
    });
    const today = new Date();
    for (let i = 0; i < 5; i++) {
      const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i));
      await api('POST', '/v1/stats?action=worktime', { hours: [2, 3.5, 1, 4, 2.5][i], date: d.toISOString().slice(0, 10), project: 'sheet-workspace' });
    }
  }

  it('signs in with an API key; the key is not kept in the browser', async () => {
    await page.goto(`${s.url}/console/`);
    await page.waitForSelector('input[name=api_key]');
    await shot('sign-in');
    await page.fill('input[name=api_key]', owner.key);
    await page.click('button[type=submit]');
    await page.waitForSelector('main h1:has-text("Sheets")');
    const cookies = await ctx.cookies(s.url);
    const c = cookies.find((x) => x.name === 'sw_console')!;
    assert.equal(c.httpOnly, true);
    assert.equal(c.sameSite, 'Strict');
    assert.equal(await page.evaluate(() => document.cookie), '', 'the session cookie is invisible to scripts');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    assert.equal(stored.includes(owner.key.slice(3)), false);
  });

  it('shows plan and keys; creates a key shown once and disables it after confirmation', async () => {
    await page.click('header nav >> text=API keys');
    await page.waitForSelector('tr[data-key-id]');
    assert.match(await page.locator('main').innerText(), /Plan: pro/);
    await shot('account-api-keys');

    await page.fill('input[name=key_name]', 'ci laptop');
    await page.click('text=Create key');
    const full = await page.locator('[data-testid=shown-once]').innerText();
    assert.match(full, /^sk_[A-Za-z0-9_-]{43}$/);
    await shot('account-new-key');
    assert.equal((await s.req('GET', '/v1/api-keys', { key: full })).status, 200, 'the shown key works');
    await page.click('text=Done');
    assert.equal(await page.locator('[data-testid=shown-once]').count(), 0, 'the key is gone once dismissed');

    const row = page.locator('tr', { hasText: 'ci laptop' });
    await row.locator('text=Disable').click();
    await page.waitForSelector('.modal');
    await shot('account-disable-confirm');
    await page.click('.modal >> text=Disable key');
    await row.locator('.badge-disabled').waitFor();
    assert.equal((await s.req('GET', '/v1/api-keys', { key: full })).status, 401, 'the disabled key is refused');
  });

  it('registers a webhook, shows why a disabled one is off, enables it, sends a test and shows the delivery', async () => {
    await go('webhooks', 'text=Register a webhook');
    await page.fill('input[name=url]', receiver.url);
    await page.fill('input[name=name]', 'CI receiver');
    await page.locator('label.check', { hasText: 'export.completed' }).locator('input').check();
    await page.click('button:has-text("Register")');
    const secret = await page.locator('[data-testid=shown-once]').innerText();
    assert.match(secret, /^whsec_/);
    await page.click('text=Done');
    const hook = (await api('GET', '/v1/webhooks')).webhooks[0];
    assert.deepEqual(hook.events.sort(), ['export.completed', 'sheet.created']);

    await s.c.db
      .updateTable('webhooks')
      .set({ status: 'disabled', disabled_at: new Date().toISOString(), disabled_reason: 'HTTP 500 from https://127.0.0.1/hook after 5 retries' } as never)
      .where('id', '=', hook.id)
      .execute();
    await go('webhooks', `[data-webhook-id="${hook.id}"] .badge-disabled`);
    assert.match(await page.locator('.disabled-why').innerText(), /HTTP 500 from .* after 5 retries/);
    await shot('webhooks-disabled');
    await page.click(`[data-webhook-id="${hook.id}"] >> text=Enable`);
    await page.locator(`[data-webhook-id="${hook.id}"] .badge-enabled`).waitFor();
    assert.equal((await api('GET', '/v1/webhooks')).webhooks[0].status, 'enabled');

    await page.click(`[data-webhook-id="${hook.id}"] >> text=Send test`);
    await page.waitForSelector('text=/Test sent: delivered, HTTP 200/');
    await receiver.waitFor(1);
    const delivery = page.locator('details.delivery').first();
    await delivery.locator('summary').click();
    assert.equal(await delivery.locator('td.status-code').first().innerText(), '200');
    assert.match(await delivery.innerText(), /\d+ ms/);
    await shot('webhooks-deliveries');
    await delivery.locator('text=Redeliver').click();
    await receiver.waitFor(2);
  });

  it('renders a sheet holding <img src=x onerror=alert(1)> without running any script', async () => {
    await go('sheets', `a[href="#/sheets/${ids.xss}"]`);
    await page.fill('input[name=q]', 'release');
    await page.click('button:has-text("Search")');
    await page.waitForSelector('text=1 sheet(s)');
    await page.fill('input[name=q]', '');
    await page.click('button:has-text("Search")');
    await page.waitForSelector(`text=${(await api('GET', '/v1/sheets')).total} sheet(s)`);
    await shot('sheets');

    await page.click(`a[href="#/sheets/${ids.xss}"]`);
    await page.waitForSelector('text=After the image');
    await page.waitForTimeout(500);
    assert.deepEqual(dialogs, [], 'no alert() ran');
    const img = page.locator('.rich-text img:not(.ProseMirror-separator)');
    assert.equal(await img.count(), 1);
    assert.equal(await img.getAttribute('onerror'), null, 'the handler was stripped');
    await shot('sheet-view');

    await page.click('button:has-text("html")');
    const href = await page.locator('a.export-link').getAttribute('href');
    const file = await fetch(href!);
    assert.equal(file.status, 200, 'the export downloads without a key or cookie');
    assert.equal((await file.text()).includes('onerror'), false);

    await page.click('text=Move to trash');
    await page.click('.modal >> text=Move to trash');
    await page.waitForSelector('text=/in the trash since/i');
    await page.click('button:has-text("Restore")');
    await page.waitForSelector('text=Move to trash');
  });

  it('crafted links cannot steer a request: ids from the URL are checked and every path segment is encoded', async () => {
    const victim = (await api('POST', '/v1/sheets', { title: 'Keep me', content: { col1: '<p>precious</p>' } })).id;
    const keyId = (await api('GET', '/v1/api-keys')).api_keys.find((k: { status: string }) => k.status === 'active').id;
    const sent: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => sent.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
    page.on('request', onRequest);
    for (const hash of [`sheets/${victim}?permanent=true`, `sheets/..%2Fapi-keys%2F${keyId}`, `sheets/%2e%2e%2fapi-keys%2f${keyId}`, `sessions/${victim}`, `sheets/${victim}%3Fpermanent=true`]) {
      await go(hash, 'text=This link does not name a valid record');
      assert.equal(await page.locator('text=Move to trash').count(), 0, hash);
    }
    page.off('request', onRequest);
    assert.deepEqual(
      sent.filter((r) => !r.startsWith('GET ')),
      [],
      'no writes were sent',
    );
    assert.deepEqual(
      sent.filter((r) => /permanent|api-keys|%2e|\.\./i.test(r)),
      [],
      'no steered reads either',
    );
    assert.equal((await s.req('GET', `/v1/sheets/${victim}`, { key: owner.key })).status, 200, 'the sheet is still there');
    assert.equal((await s.req('GET', '/v1/api-keys', { key: owner.key })).body.api_keys.find((k: { id: string }) => k.id === keyId).status, 'active');

    await go(`sheets/${victim}`, 'text=precious');
    await page.click('text=Move to trash');
    await page.waitForSelector('.modal', { state: 'visible' });
    await page.click('.modal >> text=Cancel');
    assert.equal((await s.req('GET', `/v1/sheets/${victim}`, { key: owner.key })).body.sheet.trashedAt, null, 'nothing happens without the confirm step');
  });

  it('browses sessions with handovers, knowledge and todos by status', async () => {
    await go('sessions', `a[href="#/sessions/${ids.session}"]`);
    await page.click(`a[href="#/sessions/${ids.session}"]`);
    await page.waitForSelector('text=Handover: Console work');
    assert.match(await page.locator('.handover').innerText(), /Write the browser tests/);
    await shot('session-handover');

    await go('knowledge', 'text=EADDRINUSE on start');
    await page.click('text=EADDRINUSE on start');
    await page.waitForSelector('text=Set PORT to a free port.');
    await shot('knowledge');

    await go('todos', '[data-status=completed] >> text=Export module');
    assert.match(await page.locator('[data-status=pending]').innerText(), /Write docs/);
    assert.match(await page.locator('[data-status=in_progress]').innerText(), /Browser tests/);
    await shot('todos');
  });

  it('works at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await go('account', 'tr[data-key-id]');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `no horizontal scrolling at 390px (overflow ${overflow}px)`);
    await shot('phone-account');
    await go(`sheets/${ids.xss}`, 'text=After the image');
    await shot('phone-sheet');
    await go('webhooks', '[data-webhook-id]');
    await shot('phone-webhooks');
  });

  it('signs out; the old cookie no longer works', async () => {
    const before = (await ctx.cookies(s.url)).find((x) => x.name === 'sw_console')!.value;
    await page.click('text=Sign out');
    await page.waitForSelector('input[name=api_key]');
    const r = await s.req('GET', '/v1/sheets', { headers: { cookie: `sw_console=${before}`, 'x-console': '1' } });
    assert.equal(r.status, 401);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(pageErrors, []);
  });
});
