import { execFileSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { strFromU8, unzipSync } from 'fflate';
import type { BrowserContext, Page } from 'playwright-core';
import { expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

// Issue 35.6: the console's "Download all my data" button saves the account export zip.
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

describe('console: download all my data, in headless Chromium', { skip }, () => {
  let ctx: BrowserContext;
  let page: Page;
  const {
    s,
    users: { owner },
    beforeClose,
  } = useServer('sqlite', { users: { owner: 'pro' } });
  before(async () => {
    await expect200(s, owner.key, 'POST', '/v1/sheets', { title: 'Exported sheet', content: { col1: '<p>kept</p>' } });
    ctx = await openBrowser({ viewport: { width: 1280, height: 860 } });
    page = ctx.pages()[0] ?? (await ctx.newPage());
  });
  beforeClose(() => ctx?.close());

  it('saves a zip of the account under the server-given name', async () => {
    await page.goto(`${s.url}/console/`);
    await page.getByLabel('API key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Exported sheet' }).waitFor();
    await page.goto(`${s.url}/console/#/account`);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download all my data (.zip)' }).click()]);
    assert.match(file.suggestedFilename(), new RegExp(`^sheet-workspace-${owner.userId}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    assert.equal(JSON.parse(strFromU8(files['manifest.json']!)).counts.sheets, 1);
    assert.match(strFromU8(files['records/sheets.jsonl']!), /Exported sheet/);
  });
});
