import { execFileSync } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

/**
 * The console's live connection in real headless Chromium: a dropped event stream resumes with
 * Last-Event-ID (even before any event had arrived), and autosave is not held off by an agent
 * writing the same sheet every fraction of a second.
 */
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

describe('console live stream and autosave in headless Chromium', { skip }, () => {
  let ctx: BrowserContext;
  let page: Page;
  let owner: { key: string; userId: string; personalWorkspace: string };
  const pageErrors: string[] = [];
  const streams: Request[] = [];
  const rest = (method: string, p: string, body?: unknown) => expect200(s, owner.key, method, p, body);
  const column = (key: string) => page.getByRole('textbox', { name: key, exact: true });
  const lastEventIdOf = async (r: Request) => (await r.allHeaders())['last-event-id'];
  const isStream = (url: string) => new URL(url).pathname === '/v1/events/stream';
  const streamSockets = new Set<Socket>();
  /**
   * Cuts the browser's event stream the way a network drop or a proxy's idle timeout does (its TCP
   * connection dies; Chromium's offline emulation leaves a stream already open untouched), and keeps
   * new stream requests failing until `restore`, so what is written in between happens in a gap.
   */
  const dropStream = async () => {
    await page.route('**/v1/events/stream', (r) => r.abort('internetdisconnected'));
    for (const sock of streamSockets) sock.destroy();
    streamSockets.clear();
  };
  const restore = () => page.unroute('**/v1/events/stream');
  /** Opens a sheet in the console and waits until its event stream is connected. */
  const open = async (id: string) => {
    const connected = page.waitForResponse((r) => isStream(r.url()) && r.status() === 200);
    await page.goto(`${s.url}/console/#/sheets/${id}`);
    await page.reload();
    await column('col1').waitFor();
    await connected;
  };

  const { s, beforeClose } = useServer('sqlite');
  before(async () => {
    s.app.server.on('request', (req: IncomingMessage) => {
      if (!req.url?.startsWith('/v1/events/stream')) return;
      streamSockets.add(req.socket);
      req.socket.once('close', () => streamSockets.delete(req.socket));
    });
    owner = await s.user('pro');
    ctx = await openBrowser({ viewport: { width: 1280, height: 860 } });
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('request', (r) => isStream(r.url()) && streams.push(r));
    await page.goto(`${s.url}/console/`);
    await page.getByLabel('API key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });
  beforeClose(() => ctx?.close());

  it('resumes a dropped stream with Last-Event-ID: a REST write made while it was down shows without a reload', async () => {
    const id = (await rest('POST', '/v1/sheets', { title: 'Resume test', content: { col1: '<p>before</p>' } })).sheet.id;
    await open(id);
    const marker = await page.evaluate(() => ((window as any).__sameDocument = Math.random()));
    const first = streams.length;
    assert.equal(await lastEventIdOf(streams[first - 1]), undefined, 'the first connection has nothing to resume from');
    assert.equal(streamSockets.size, 1);

    // Down before any event reached the page: the reconnect must still not start from "now".
    await dropStream();
    await sleep(300);
    await rest('PUT', `/v1/sheets/${id}`, { content: { col1: '<p>written while offline</p>' } });
    await sleep(300);
    await restore();
    await column('col1').getByText('written while offline').waitFor({ timeout: 15_000 });
    assert.equal(await page.evaluate(() => (window as any).__sameDocument), marker, 'no reload');
    const resumedFrom = await lastEventIdOf(streams.at(-1)!);
    assert.ok(streams.length > first, 'the page reconnected');
    assert.match(resumedFrom ?? '', /^evt_[0-9a-hjkmnp-tv-z]{26}$/, 'the reconnect carried Last-Event-ID');

    // Again, now that an event has arrived: the next reconnect resumes after that event.
    const second = streams.length;
    await dropStream();
    await sleep(300);
    await rest('PUT', `/v1/sheets/${id}`, { title: 'Renamed while offline', content: { col1: '<p>second gap</p>' } });
    await sleep(300);
    await restore();
    await column('col1').getByText('second gap').waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => (document.querySelector('input[name=title]') as HTMLInputElement | null)?.value === 'Renamed while offline');
    assert.equal(await page.evaluate(() => (window as any).__sameDocument), marker, 'no reload');
    assert.ok(streams.length > second, 'the page reconnected');
    const resumedAgain = await lastEventIdOf(streams.at(-1)!);
    assert.ok(resumedAgain && resumedAgain > resumedFrom!, `resumed after the event received (${resumedAgain} > ${resumedFrom})`);
    assert.deepEqual(pageErrors, []);
  });

  it('autosaves 2 s after the person stops typing while an agent keeps writing another column', async () => {
    const id = (await rest('POST', '/v1/sheets', { title: 'Busy sheet', content: { col1: '<p>start</p>', col2: '<p>agent 0</p>' } })).sheet.id;
    await open(id);
    let writing = true;
    let n = 0;
    const agent = (async () => {
      while (writing) {
        await rest('PUT', `/v1/sheets/${id}`, { content: { col2: `<p>agent ${++n}</p>` } });
        await sleep(700);
      }
    })();
    try {
      await column('col2').getByText('agent 1', { exact: true }).waitFor({ timeout: 5000 });
      await column('col1').click();
      await page.keyboard.press('End');
      await page.keyboard.type(' typed by the person', { delay: 100 });
      const stoppedAt = Date.now();
      const writesWhileTyping = n;
      let saved = '';
      while (Date.now() - stoppedAt < 6000) {
        saved = (await rest('GET', `/v1/sheets/${id}`)).sheet.content.col1;
        if (saved.includes('typed by the person')) break;
        await sleep(200);
      }
      assert.match(saved, /start typed by the person/, 'saved within 6 s of the last keystroke');
      assert.ok(writesWhileTyping >= 2 && n >= writesWhileTyping + 2, `the agent wrote during the typing and the quiet after it (${writesWhileTyping}, then ${n})`);
      // The agent's column followed live the whole time and nothing was flagged as a conflict.
      await column('col2').getByText(`agent ${n}`, { exact: true }).waitFor({ timeout: 2000 });
      assert.equal(await page.locator('[data-testid=conflict-banner], [data-testid=clash-banner]').count(), 0);
    } finally {
      writing = false;
      await agent;
    }
    const final = (await rest('GET', `/v1/sheets/${id}`)).sheet;
    assert.match(final.content.col1, /start typed by the person/);
    assert.match(final.content.col2, new RegExp(`agent ${n}<`), "the person's save kept the agent's column");
    assert.deepEqual(pageErrors, []);
  });

  it("a save that meets an agent's unseen write to another column (412) takes it in and saves again, without a banner", async () => {
    const id = (await rest('POST', '/v1/sheets', { title: 'Stale base', content: { col1: '<p>mine</p>', col2: '<p>theirs</p>' } })).sheet.id;
    await open(id);
    await dropStream(); // the page cannot hear of the agent's write, so its save is sent on a stale version
    await rest('PUT', `/v1/sheets/${id}`, { content: { col2: '<p>agent unseen</p>' } });
    await column('col1').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' edited');
    await page.keyboard.press('Control+s');
    await column('col2').getByText('agent unseen').waitFor({ timeout: 5000 });
    await page.locator('[data-testid=save-state]', { hasText: /^Saved/ }).waitFor();
    const got = (await rest('GET', `/v1/sheets/${id}`)).sheet;
    assert.match(got.content.col1, /mine edited/);
    assert.match(got.content.col2, /agent unseen/);
    assert.equal(await page.locator('[data-testid=conflict-banner], [data-testid=clash-banner]').count(), 0);
    await restore();
    assert.deepEqual(pageErrors, []);
  });
});
