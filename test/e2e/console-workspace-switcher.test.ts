import { execFileSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { dialects, expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

/**
 * Issue 33.9 in the console, in real Chromium: the header's workspace switcher (remembered across
 * reloads; lists and creates of every record page name the chosen workspace, nothing is added in the
 * personal one), members' names on revisions and on a workspace's events, and chart labels that keep
 * their size at any window width.
 */
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

/** The record pages and the list each asks for. */
const PAGES = [
  ['sheets', '/v1/sheets'],
  ['sessions', '/v1/sessions'],
  ['knowledge', '/v1/knowledge'],
  ['todos', '/v1/todos'],
  ['sparks', '/v1/spark'],
  ['stats', '/v1/stats'],
  ['webhooks', '/v1/webhooks'],
] as const;

for (const dialect of dialects()) {
  describe(`console: the workspace switcher, members' names, chart type [${dialect}]`, { skip }, () => {
    // Each page is loaded afresh at two workspaces and two widths: well over a plan's 100 requests a minute.
    const {
      s,
      users: { alice, bob },
      beforeClose,
    } = useServer(dialect, { users: { alice: 'pro', bob: 'pro' }, env: { RATE_LIMIT_DISABLED: '1' } });
    let ctx: BrowserContext;
    let page: Page;
    let team: string;
    let teamSheet: string;
    const names: Record<string, string> = {};
    const sent: { method: string; path: string; query: URLSearchParams; body: any }[] = [];
    const rest = (key: string, method: string, p: string, body?: unknown) => expect200(s, key, method, p, body);

    before(async () => {
      team = (await rest(alice.key, 'POST', '/v1/workspaces', { name: 'Team Alpha' })).workspace.id;
      const { invitation } = await rest(alice.key, 'POST', `/v1/workspaces/${team}/invitations`, { role: 'editor' });
      await rest(bob.key, 'POST', `/v1/invitations/${invitation.token}/accept`);
      for (const m of (await rest(alice.key, 'GET', `/v1/workspaces/${team}/members`)).members) names[m.user_id] = m.name;
      assert.notEqual(names[alice.userId], names[bob.userId], 'two members told apart by name');

      await rest(alice.key, 'POST', '/v1/sheets', { title: 'Alice private plan', content: { col1: '<p>mine</p>' } });
      teamSheet = (await rest(alice.key, 'POST', '/v1/sheets', { title: 'Team roadmap', content: { col1: '<p>v1</p>' }, workspace_id: team })).sheet.id;
      // Bob writes the next version of the team's sheet with his own key.
      await expect200(s, bob.key, 'PUT', `/v1/sheets/${teamSheet}`, { content: { col1: '<p>v2 by Bob</p>' } }, { 'If-Match': '"1"' });

      ctx = await openBrowser({ viewport: { width: 1280, height: 860 } });
      page = ctx.pages()[0] ?? (await ctx.newPage());
      page.on('request', (r: Request) => {
        const u = new URL(r.url());
        if (!u.pathname.startsWith('/v1/')) return;
        let body: any;
        try {
          body = r.postData() ? JSON.parse(r.postData()!) : undefined;
        } catch {
          body = undefined;
        }
        sent.push({ method: r.method(), path: u.pathname, query: u.searchParams, body });
      });
      await page.goto(`${s.url}/console/`);
      await page.getByLabel('API key').fill(alice.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Sheets', level: 1 }).waitFor();
    });
    beforeClose(() => ctx?.close());

    const switcher = () => page.locator('.switcher-toggle');
    const choose = async (name: string) => {
      if ((await switcher().getAttribute('aria-label')) === `Workspace: ${name}`) return;
      await switcher().click();
      await page.locator('#workspace-list').getByRole('button', { name }).click();
      await page.waitForFunction((n) => document.querySelector('.switcher-toggle')?.getAttribute('aria-label') === `Workspace: ${n}`, name);
    };
    /** The requests the page sends to `path` while `fn` runs. */
    const requestsTo = async (path: string, fn: () => Promise<void>) => {
      const from = sent.length;
      await fn();
      return sent.slice(from).filter((r) => r.path === path);
    };
    const visit = async (hash: string, list: string) => {
      const reqs = await requestsTo(list, async () => {
        const answered = page.waitForResponse((r) => new URL(r.url()).pathname === list && r.request().method() === 'GET');
        await page.goto(`${s.url}/console/#/${hash}`);
        await page.reload();
        await answered;
      });
      assert.ok(reqs.length > 0, `#/${hash} lists ${list}`);
      return reqs;
    };

    it('the personal workspace is the default and then no request names a workspace', async () => {
      assert.equal(await switcher().getAttribute('aria-label'), 'Workspace: Personal');
      await page.getByRole('link', { name: 'Alice private plan' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Team roadmap' }).count(), 0, "the team's sheet is not in the personal list");
      for (const [hash, list] of PAGES) {
        for (const r of await visit(hash, list)) assert.equal(r.query.get('workspace_id'), null, `${r.method} ${list} from #/${hash} in the personal workspace`);
      }
      assert.ok(
        sent.every((r) => !r.query.has('workspace_id') && !(r.body && 'workspace_id' in r.body)),
        'nothing anywhere named a workspace',
      );
      assert.deepEqual(
        sent.filter((r) => r.path === '/v1/workspaces'),
        [],
        'nor asked for the workspaces: the switcher lists them when opened',
      );
    });

    it('choosing a team workspace: every list and create names it, the live stream follows, and a reload keeps it', async () => {
      await page.goto(`${s.url}/console/#/sheets/${teamSheet}`);
      await page.getByRole('textbox', { name: 'col1', exact: true }).waitFor();
      // The stream reopens in an effect after the switch renders, and Playwright reports a request a little
      // after the page sent it: wait for that request itself (Playwright's timeout fails the test without it).
      const reopened = page.waitForRequest((r) => {
        const u = new URL(r.url());
        return u.pathname === '/v1/events/stream' && u.searchParams.get('workspace_id') === team;
      });
      await choose('Team Alpha');
      assert.equal(new URL(page.url()).hash, '#/sheets', 'a record page goes back to its list in the new workspace');
      await page.getByRole('link', { name: 'Team roadmap' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Alice private plan' }).count(), 0, "only the team workspace's sheets");
      await reopened; // the live stream reopened for the team workspace

      for (const [hash, list] of PAGES) {
        for (const r of await visit(hash, list)) assert.equal(r.query.get('workspace_id'), team, `${r.method} ${list} from #/${hash}`);
      }
      // By-id reads stay as they were: a record is found in any workspace the person may read.
      const byId = await requestsTo(`/v1/sheets/${teamSheet}`, async () => {
        await page.goto(`${s.url}/console/#/sheets/${teamSheet}`);
        await page.getByRole('textbox', { name: 'col1', exact: true }).waitFor();
      });
      assert.ok(byId.length > 0 && byId.every((r) => !r.query.has('workspace_id')));

      // A new sheet is made in the chosen workspace.
      await page.goto(`${s.url}/console/#/sheets/new`);
      const created = await requestsTo('/v1/sheets', async () => {
        const made = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/sheets' && r.request().method() === 'POST');
        await page.getByLabel('Title').fill('Made in the team');
        await page.keyboard.press('Control+s');
        await made;
      });
      const post = created.find((r) => r.method === 'POST')!;
      assert.equal(post.body.workspace_id, team);
      await page.waitForFunction(() => /#\/sheets\/sht_/.test(location.hash));
      const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
      assert.equal((await rest(bob.key, 'GET', `/v1/sheets/${id}`)).sheet.workspace_id, team, 'stored in the team workspace: Bob reads it');
      assert.ok((await rest(bob.key, 'GET', `/v1/sheets?workspace_id=${team}`)).sheets.some((x: { id: string }) => x.id === id));

      await page.goto(`${s.url}/console/#/sheets`);
      const again = await requestsTo('/v1/sheets', async () => {
        const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/sheets');
        await page.reload();
        await answered;
      });
      // The switcher names the workspace once the workspaces' list has answered too (it shows "…" until then).
      await page.waitForFunction(() => document.querySelector('.switcher-toggle')?.getAttribute('aria-label') !== 'Workspace: …');
      assert.equal(await switcher().getAttribute('aria-label'), 'Workspace: Team Alpha', 'remembered across a reload');
      assert.equal(again[0].query.get('workspace_id'), team, 'the first list after the reload already names it');

      await choose('Personal');
      await page.getByRole('link', { name: 'Alice private plan' }).waitFor();
      assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => localStorage.getItem(k)?.startsWith('wsp_')).length), 0, 'the personal workspace is stored as no choice');
    });

    it("a session or sheet opened by link from another workspace: a handover or Spark run happens in the record's own", async () => {
      const handOver = async (sessionId: string, title: string) => {
        await page.goto(`${s.url}/console/#/sessions/${sessionId}`);
        await page.getByText('No handover yet.').waitFor();
        await page.getByLabel('Next steps (one per line)').fill('Ship the switcher');
        await page.getByRole('button', { name: 'Make handover' }).click();
        const link = page.getByRole('link', { name: `Handover: ${title}` });
        await link.or(page.locator('main [role=alert]')).first().waitFor();
        assert.deepEqual(await page.locator('main [role=alert]').allInnerTexts(), []);
        assert.equal(await link.count(), 1, 'the handover is listed under its session');
      };
      const teamSession = (await rest(bob.key, 'POST', '/v1/sessions', { title: 'Team sprint review', summary: 'Reviewed.', workspace_id: team })).session;
      await choose('Personal');
      await handOver(teamSession.id, 'Team sprint review');
      const inTeam = (await rest(bob.key, 'GET', `/v1/sheets?workspace_id=${team}&q=${encodeURIComponent('handover Team sprint review')}`)).sheets;
      assert.ok(
        inTeam.some((x: { title: string }) => x.title === 'Handover: Team sprint review'),
        'the handover sheet is in the team workspace',
      );

      // A Spark run on a personal sheet opened by link while the team workspace is chosen runs in the sheet's workspace.
      await choose('Team Alpha');
      const mine = (await rest(alice.key, 'GET', '/v1/sheets?limit=5')).sheets.find((x: { title: string }) => x.title === 'Alice private plan');
      await page.goto(`${s.url}/console/#/sparks/${mine.id}`);
      await page.reload();
      await page.getByTestId('spark-input').filter({ hasText: 'mine' }).waitFor();
      await page.getByRole('button', { name: 'Run Spark' }).click();
      await page.getByTestId('spark-result').or(page.locator('main [role=alert]')).first().waitFor();
      assert.deepEqual(await page.locator('main [role=alert]').allInnerTexts(), []);

      const ownSession = (await rest(alice.key, 'POST', '/v1/sessions', { title: 'Solo spike', summary: 'Tried it.' })).session;
      await choose('Team Alpha');
      await handOver(ownSession.id, 'Solo spike');
      const inPersonal = (await rest(alice.key, 'GET', `/v1/sheets?q=${encodeURIComponent('handover Solo spike')}`)).sheets;
      assert.ok(
        inPersonal.some((x: { title: string }) => x.title === 'Handover: Solo spike'),
        'the handover sheet is in the personal workspace',
      );
      await choose('Personal');
    });

    it('a remembered workspace the person no longer belongs to falls back to the personal one', async () => {
      const gone = (await rest(alice.key, 'POST', '/v1/workspaces', { name: 'Short lived' })).workspace;
      await page.goto(`${s.url}/console/#/workspaces`);
      await page.reload();
      await choose('Short lived');
      await rest(alice.key, 'DELETE', `/v1/workspaces/${gone.id}`, { confirm: 'Short lived' });
      await page.goto(`${s.url}/console/#/sheets`);
      await page.reload();
      await page.waitForFunction(() => document.querySelector('.switcher-toggle')?.getAttribute('aria-label') === 'Workspace: Personal');
      await page.getByRole('link', { name: 'Alice private plan' }).waitFor();
    });

    it("revisions name the member who wrote each version; a workspace's events name the member who acted", async () => {
      // The workspaces page switches too; the switcher's list closes on Escape with focus back on its button.
      await page.goto(`${s.url}/console/#/workspaces`);
      await page.getByRole('button', { name: 'Work in Team Alpha' }).click();
      await page.waitForFunction(() => document.querySelector('.switcher-toggle')?.getAttribute('aria-label') === 'Workspace: Team Alpha');
      await switcher().click();
      await page.locator('#workspace-list button[aria-current=true]').filter({ hasText: 'Team Alpha' }).waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-current') === 'true', undefined, { timeout: 5000 }); // focus starts on the workspace in use
      await page.keyboard.press('Escape');
      await page.locator('#workspace-list').waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('switcher-toggle')), true);

      await page.goto(`${s.url}/console/#/sheets/${teamSheet}/revisions`);
      const by = (v: number) => page.locator(`tr[data-version="${v}"] td.by .member`);
      await by(2).waitFor();
      assert.equal(await by(2).innerText(), names[bob.userId]);
      assert.equal(await by(1).innerText(), names[alice.userId]);
      assert.match(await page.locator('tr[data-version="2"] td.by').innerText(), /\(API key\)$/, 'and the credential it was written with');

      // Personal sheets' history keeps its words: every version is the owner's own.
      const mine = (await rest(alice.key, 'GET', '/v1/sheets?limit=5')).sheets.find((x: { title: string }) => x.title === 'Alice private plan');
      const from = sent.length;
      await page.goto(`${s.url}/console/#/sheets/${mine.id}/revisions`);
      await page.getByRole('heading', { name: 'History: Alice private plan' }).waitFor();
      await page.locator('tr[data-version="1"] td.by').waitFor();
      await page.waitForTimeout(300);
      assert.deepEqual(
        sent.slice(from).filter((r) => r.path.endsWith('/members')),
        [],
        'no names are looked up for it',
      );
      assert.equal(await page.locator('td.by .member').count(), 0);

      await page.goto(`${s.url}/console/#/workspaces/${team}`);
      /** Who a row of the activity names, once the members' names have loaded. */
      const actor = async (event: string, text: string) => {
        const cell = page.locator(`tr[data-event="${event}"]`).filter({ hasText: text }).locator('td.actor');
        await page.waitForFunction((el) => !!el?.textContent, await cell.elementHandle());
        return cell.innerText();
      };
      assert.equal(await actor('sheet.updated', 'version 2'), names[bob.userId]);
      assert.equal(await actor('sheet.created', 'Team roadmap'), names[alice.userId]);
      // And live: Bob's next write appears with his name while the page is open.
      await expect200(s, bob.key, 'PUT', `/v1/sheets/${teamSheet}`, { title: 'Team roadmap 2' }, { 'If-Match': '"2"' });
      assert.equal(await actor('sheet.updated', 'version 3'), names[bob.userId]);
    });

    it('the header stays one row with the switcher, even for a long workspace name, from 390 to 1600 px', async () => {
      const long = 'The platform team of the northern region, with a name far longer than a header has room for';
      await rest(alice.key, 'POST', '/v1/workspaces', { name: long });
      await page.goto(`${s.url}/console/#/sheets`);
      await page.reload();
      await choose(long);
      for (const width of [1600, 1441, 1440, 1241, 1240, 1100, 1081, 1080, 640, 390]) {
        await page.setViewportSize({ width, height: 860 });
        // (No named functions inside: the page has no __name helper for them.)
        const m = await page.evaluate(() => {
          const [header, switcher, find, who] = ['header.top', '.switcher-toggle', 'header.top > button:not(.menu-toggle)', 'header .who'].map(
            (sel) => document.querySelector(sel)!.getBoundingClientRect().toJSON() as DOMRect,
          );
          const links = [...document.querySelectorAll('header nav a')].map((a) => a.getBoundingClientRect()).filter((r) => r.width > 0);
          return {
            header: header.height,
            switcher,
            navEnd: links.length ? Math.max(...links.map((r) => r.right)) : 0,
            linkTops: new Set(links.map((r) => Math.round(r.top))).size,
            find,
            who,
          };
        });
        assert.ok(m.header <= 60, `one header row at ${width} px: ${m.header} px high`);
        assert.ok(m.linkTops <= 1 && m.navEnd <= m.find.left, `the links keep one row before Find at ${width} px`);
        assert.ok(m.switcher.right <= m.find.left && m.who.right <= width, `nothing overlaps or runs off at ${width} px`);
      }
      await page.setViewportSize({ width: 1280, height: 860 });
      await choose('Personal');
    });

    it('chart labels keep one size at 600 and 1800 px wide', async () => {
      await rest(alice.key, 'POST', '/v1/stats?action=worktime', { hours: 2.5, date: new Date().toISOString().slice(0, 10), workspace_id: team });
      await choose('Team Alpha');
      const measured = [];
      for (const width of [600, 1800]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${s.url}/console/#/stats`);
        await page.reload();
        const charts = page.locator('svg.chart');
        await page.locator('svg.chart[aria-label="Work hours by week"], main [role=alert]').first().waitFor();
        assert.deepEqual(await page.locator('main [role=alert]').allInnerTexts(), [], 'Stats loads');
        measured.push(
          await charts.evaluateAll((svgs) =>
            svgs.flatMap((svg) =>
              [...svg.querySelectorAll('text')].map((t) => ({
                text: t.textContent,
                font: getComputedStyle(t).fontSize,
                height: Math.round(t.getBoundingClientRect().height * 10) / 10,
                scale: svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width,
              })),
            ),
          ),
        );
      }
      const [narrow, wide] = measured;
      assert.ok(
        narrow.some((t) => t.text === '2.5'),
        "the team workspace's hours are charted",
      );
      assert.ok(narrow.length > 28);
      for (const t of narrow) {
        assert.equal(t.font, '12px');
        assert.ok(t.height >= 12 && t.height <= 18, `a 12 px label draws ${t.height} px high`);
        assert.equal(t.scale, 1, 'the drawing is not scaled to the page');
      }
      assert.deepEqual(wide, narrow, 'every label the same size at 1800 px as at 600 px');
    });
  });
}
