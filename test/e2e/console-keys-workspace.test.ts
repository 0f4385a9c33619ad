import { execFileSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { assertError, dialects, expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';
import { REDIRECT, authorizeUrl, openConsent, pkce, register, submitConsent, token } from '../oauth-helpers.js';

// docs/teams.md "Keys and OAuth per workspace" in the console: the API keys page makes a key restricted to
// one workspace picked by name, and the keys and connected-apps lists name each one's workspace.
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

for (const dialect of dialects()) {
  describe(`console: API keys and connected apps per workspace [${dialect}]`, { skip }, () => {
    const {
      s,
      users: { owner },
      beforeClose,
    } = useServer(dialect, { users: { owner: 'pro' } });
    let personal = '';
    let team = '';
    let ctx: BrowserContext;
    let page: Page;
    before(async () => {
      personal = `wsp_${owner.userId.slice(4)}`;
      team = (await expect200(s, owner.key, 'POST', '/v1/workspaces', { name: 'Team Keys' })).workspace.id;
      ctx = await openBrowser();
      page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(`${s.url}/console/`);
      await page.getByLabel('API key').fill(owner.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Sheets', level: 1 }).waitFor();
    });
    beforeClose(() => ctx?.close());

    const keyRow = (name: string) => page.locator('tr[data-key-id]').filter({ has: page.getByRole('cell', { name, exact: true }) });

    it('a key made for the team workspace is listed under its name and reaches only that workspace', async () => {
      await page.goto(`${s.url}/console/#/account`);
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      const select = page.getByRole('combobox', { name: 'Workspace', exact: true });
      await select.locator(`option[value="${team}"]`).waitFor({ state: 'attached' });
      assert.deepEqual(await select.locator('option').allInnerTexts(), ['Every workspace', 'Personal', 'Team Keys']);
      assert.equal(await select.inputValue(), '', 'every workspace by default');
      assert.equal(await keyRow('default').locator('td[data-label=Workspace]').innerText(), 'Every workspace');

      // Name, then Tab to the labelled select, then the button: the keyboard order of the form.
      await page.getByLabel('Key name').fill('team bot');
      await page.getByLabel('Key name').press('Tab');
      assert.equal(await select.evaluate((el) => el === document.activeElement), true, 'Tab goes from the name to the workspace');
      await select.selectOption({ label: 'Team Keys' });
      await page.getByRole('button', { name: 'Create key' }).click();
      const made = await page.getByTestId('shown-once').innerText();
      await page.getByRole('button', { name: 'Done' }).click();
      const row = keyRow('team bot');
      await row.waitFor();
      assert.equal(await row.locator('td[data-label=Workspace]').innerText(), 'Team Keys');
      assert.equal(await select.inputValue(), '', 'the form starts over at every workspace');

      const listed = (await expect200(s, owner.key, 'GET', '/v1/api-keys')).api_keys as { id: string; name: string; workspace_id: string | null }[];
      const key = listed.find((k) => k.name === 'team bot')!;
      assert.equal(key.workspace_id, team);
      assert.equal(await row.getAttribute('data-key-id'), key.id);
      assert.equal((await s.req('GET', `/v1/sheets?workspace_id=${team}`, { key: made })).status, 200);
      assertError(await s.req('GET', `/v1/sheets?workspace_id=${personal}`, { key: made }), 403, 'forbidden', new RegExp(`restricted to workspace ${team}`));
      assertError(await s.req('POST', '/v1/sheets', { key: made, body: { title: 'x', workspace_id: personal } }), 403, 'forbidden');

      // Left at "Every workspace", a key is restricted to none.
      await page.getByLabel('Key name').fill('anywhere');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByTestId('shown-once').waitFor();
      await keyRow('anywhere').waitFor();
      assert.equal(await keyRow('anywhere').locator('td[data-label=Workspace]').innerText(), 'Every workspace');
      const anywhere = ((await expect200(s, owner.key, 'GET', '/v1/api-keys')).api_keys as { name: string; workspace_id: string | null }[]).find((k) => k.name === 'anywhere')!;
      assert.equal(anywhere.workspace_id, null);
    });

    it('connected apps show the workspace each app was allowed into', async () => {
      for (const [name, workspace] of [
        ['Team App', team],
        ['Home App', personal],
      ]) {
        const clientId = (await register(s, REDIRECT, name)).client_id;
        const { verifier, challenge } = pkce();
        const url = authorizeUrl(s, { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'sheets:read' });
        const consent = await openConsent(String(url));
        const r = await submitConsent(s, { ...consent, hidden: { ...consent.hidden, workspace_id: workspace } }, { key: owner.key });
        assert.equal(r.res.status, 302, r.text);
        const code = r.location!.searchParams.get('code')!;
        const t = await token(s, { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT, code_verifier: verifier });
        assert.equal(t.status, 200, JSON.stringify(t.body));
      }
      const apps = (await expect200(s, owner.key, 'GET', '/v1/connected-apps')).connected_apps as { client_name: string; workspace_id: string | null }[];
      assert.deepEqual(apps.map((a) => [a.client_name, a.workspace_id]).sort(), [
        ['Home App', personal],
        ['Team App', team],
      ]);

      await page.goto(`${s.url}/console/#/apps`);
      const appRow = (name: string) => page.locator('tr[data-app-id]').filter({ has: page.getByRole('cell', { name, exact: true }) });
      await appRow('Team App').locator('td[data-label=Workspace]').filter({ hasText: 'Team Keys' }).waitFor();
      assert.equal(await appRow('Home App').locator('td[data-label=Workspace]').innerText(), 'Personal');
    });
  });
}
