import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';
import { MemoryProvider, connectWithOAuth, mcpStatus, serveMetadataDocument } from '../oauth-helpers.js';
import { webhookEnv } from '../webhooks-helpers.js';

/**
 * The consent page in real headless Chromium (Debian's /usr/bin/chromium), driven by playwright-core:
 * the SDK client's authorization URL is opened, the person signs in and narrows the scopes, and the
 * redirect back to the client is caught. One browser for the whole file.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

let ctx: BrowserContext;
let page: Page;

let callback: { url: string; server: http.Server; last?: URL };

/** Opens the authorization URL, lets `act` fill the form, presses a button; returns the URL the browser was sent back to. */
async function consentInBrowser(authUrl: URL, act: () => Promise<void>, button: 'Allow' | 'Deny' = 'Allow'): Promise<URL> {
  callback.last = undefined;
  await page.goto(String(authUrl));
  await act();
  await Promise.all([page.waitForURL(`${callback.url}**`), page.getByRole('button', { name: button }).click()]);
  assert.ok(callback.last, 'the browser was sent back to the client');
  return callback.last;
}

describe('OAuth consent page in Chromium', { skip }, () => {
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    ctx = await openBrowser({ viewport: { width: 900, height: 1000 } });
    page = ctx.pages()[0] ?? (await ctx.newPage());
    // The MCP host's loopback redirect target (RFC 8252), where the browser lands with the code.
    const server = http.createServer((req, res) => {
      // Only the redirect itself; the browser also asks this origin for /favicon.ico.
      if (req.url?.startsWith('/callback')) callback.last = new URL(req.url, callback.url);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    callback = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, server };
  });
  after(async () => {
    await ctx?.close();
    await new Promise((r) => callback?.server.close(r));
  });

  for (const dialect of dialects()) {
    describe(`[${dialect}]`, () => {
      let doc: Awaited<ReturnType<typeof serveMetadataDocument>>;
      const {
        s,
        users: { alice },
      } = useServer(dialect, { env: webhookEnv(), users: { alice: 'pro' } });
      before(async () => {
        doc = await serveMetadataDocument();
      });
      after(async () => {
        await doc.close();
      });

      it('a client identified by its metadata document (local HTTPS) connects through the page', async () => {
        // The document lists http://127.0.0.1:7777/callback; a loopback redirect may use any port (RFC 8252).
        const provider = new MemoryProvider(callback.url, doc.url);
        const client = await connectWithOAuth(s, provider, async (authUrl) => {
          const landed = await consentInBrowser(authUrl, async () => {
            assert.equal(await page.locator('#client-name').textContent(), 'Metadata Agent');
            await page.getByLabel('API key', { exact: true }).fill(alice.key);
          });
          return landed.searchParams.get('code')!;
        });
        assert.equal(provider.info?.client_id, doc.url);
        const made = await client.callTool({ name: 'create_sheet', arguments: { title: 'From a metadata-document client' } });
        assert.notEqual(made.isError, true);
        await client.close();
      });

      it('signs in with an API key, narrows the scopes, and the SDK client gets exactly those', async () => {
        const provider = new MemoryProvider(callback.url, undefined, 'Claude');
        const client = await connectWithOAuth(s, provider, async (authUrl) => {
          const landed = await consentInBrowser(authUrl, async () => {
            assert.equal(await page.locator('#client-name').textContent(), 'Claude');
            assert.equal(await page.locator('#redirect-host').textContent(), new URL(callback.url).host);
            await page.getByLabel('API key', { exact: true }).fill(alice.key);
            for (const scope of ['webhooks:manage', 'keys:manage', 'sheets:write']) await page.locator(`input[value="${scope}"]`).uncheck();
            if (dialect === 'sqlite') await page.screenshot({ path: path.join(SHOTS, 'consent.png'), fullPage: true });
          });
          assert.equal(landed.searchParams.get('state') !== null, true);
          return landed.searchParams.get('code')!;
        });
        const names = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes('list_sheets') && names.includes('save_session'));
        assert.ok(!names.includes('create_sheet') && !names.includes('register_webhook'));
        await client.close();
        const granted = provider.saved!.scope!.split(' ');
        assert.ok(!granted.includes('sheets:write') && !granted.includes('keys:manage') && granted.includes('sheets:read'));
      });

      it('an existing console session signs the person in; Deny sends access_denied back', async () => {
        const signIn = await fetch(`${s.url}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-console': '1' }, body: JSON.stringify({ api_key: alice.key }) });
        assert.equal(signIn.status, 200);
        const [name, value] = signIn.headers.get('set-cookie')!.split(';')[0].split('=');
        await ctx.addCookies([{ name, value, url: s.url }]);
        try {
          const provider = new MemoryProvider(callback.url, undefined, 'Cursor');
          const client = await connectWithOAuth(s, provider, async (authUrl) => {
            const landed = await consentInBrowser(authUrl, async () => {
              assert.match((await page.textContent('body'))!, /Signed in to the console as/);
              assert.equal(await page.getByLabel('API key', { exact: true }).count(), 0);
            });
            return landed.searchParams.get('code')!;
          });
          assert.ok((await client.listTools()).tools.length > 10);
          await client.close();

          // Console -> Connected apps: the app is listed; Revoke ends it, the next MCP call is a 401.
          await page.goto(`${s.url}/console/#/apps`);
          const row = page.locator('tr', { hasText: 'Cursor' });
          await row.waitFor();
          assert.match((await row.textContent())!, /sheets:write/);
          if (dialect === 'sqlite') await page.screenshot({ path: path.join(SHOTS, 'connected-apps.png'), fullPage: true });
          await row.getByRole('button', { name: 'Revoke' }).click();
          await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
          await row.waitFor({ state: 'detached' });
          assert.equal((await mcpStatus(s, provider.saved!.access_token)).status, 401);

          const denying = new MemoryProvider(callback.url, undefined, 'Denied App');
          await assert.rejects(
            connectWithOAuth(s, denying, async (authUrl) => {
              const landed = await consentInBrowser(authUrl, async () => undefined, 'Deny');
              assert.equal(landed.searchParams.get('error'), 'access_denied');
              throw new Error('denied');
            }),
            /denied/,
          );
        } finally {
          await ctx.clearCookies();
        }
      });
    });
  }
});
