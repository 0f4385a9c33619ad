import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, isId, setSignedOutHandler } from './api.ts';
import { startLive, stopLive } from './live.ts';
import { Notice } from './components.tsx';
import { AccountPage } from './pages/Account.tsx';
import { BriefingPage } from './pages/Briefing.tsx';
import { ConnectedAppsPage } from './pages/ConnectedApps.tsx';
import { KnowledgePage } from './pages/Knowledge.tsx';
import { SessionsPage } from './pages/Sessions.tsx';
import { SheetsPage } from './pages/Sheets.tsx';
import { TodosPage } from './pages/Todos.tsx';
import { WebhooksPage } from './pages/Webhooks.tsx';
import { SparksPage } from './pages/Sparks.tsx';
import { StatsPage } from './pages/Stats.tsx';
import { WorkspacesPage } from './pages/Workspaces.tsx';
import { SearchDialog } from './search.tsx';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';
import { setAccount, useWorkspace } from './workspace.ts';
import type { Me } from './types.ts';
import './style.css';

/** The work first, settings last. */
const WORK_PAGES = [
  { path: 'sheets', label: 'Sheets' },
  { path: 'sessions', label: 'Sessions' },
  { path: 'briefing', label: 'Briefing' },
  { path: 'knowledge', label: 'Knowledge' },
  { path: 'todos', label: 'Todos' },
  { path: 'sparks', label: 'Sparks' },
  { path: 'stats', label: 'Stats' },
] as const;
const SETTINGS_PAGES = [
  { path: 'account', label: 'API keys' },
  { path: 'apps', label: 'Connected apps' },
  { path: 'webhooks', label: 'Webhooks' },
] as const;

function useHashRoute(): string[] {
  // A query after the path (#/briefing?project=...) is the page's own: see hashQuery.
  const read = () => (location.hash.replace(/^#\/?/, '').split('?')[0] || 'sheets').split('/');
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

const hashQuery = () => new URLSearchParams(location.hash.split('?').slice(1).join('?'));

function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      await api('POST', '/console/session', { api_key: key });
      setKey('');
      onSignedIn(await api<Me>('GET', '/console/session'));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <main class="signin">
      <form class="card" onSubmit={submit}>
        <h1>Sheet Workspace</h1>
        <p class="muted">Sign in with an API key. The key is exchanged for a session cookie and is not kept in the browser.</p>
        <label>
          API key
          <input name="api_key" type="password" autocomplete="off" placeholder="sk_..." value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
        </label>
        <Notice error={error} />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}

function App() {
  const [me, setMeOnly] = useState<Me | null | undefined>(undefined);
  // The account's remembered workspace is in place before any page asks for records.
  const setMe = (m: Me | null) => {
    setAccount(m?.user_id);
    setMeOnly(m);
  };
  const workspace = useWorkspace();
  const route = useHashRoute();
  useEffect(() => {
    setSignedOutHandler(() => setMe(null));
    api<Me>('GET', '/console/session').then(setMe, () => setMe(null));
  }, []);
  useEffect(() => {
    stopLive();
    if (me) startLive();
  }, [me, workspace]);
  const [searching, setSearching] = useState(false);
  // The menu is open for the page it was opened on: choosing another page closes it in the same render.
  const routeKey = route.join('/');
  const [menu, setMenu] = useState({ open: false, on: routeKey });
  const menuOpen = menu.open && menu.on === routeKey;
  const setMenuOpen = (open: boolean) => setMenu({ open, on: routeKey });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setSearching(true);
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  if (me === undefined) return <p class="muted pad">Loading…</p>;
  if (me === null) return <SignIn onSignedIn={setMe} />;

  const signOut = async () => {
    await api('DELETE', '/console/session').catch(() => {});
    setMe(null);
  };
  const [page, ...rest] = route;
  // A record id from the URL fragment must look like one (prefix_ + ULID) before any request uses it.
  const idFrom = (prefix: string) => (rest[0] === undefined || rest[0] === '' ? undefined : isId(rest[0], prefix) ? rest[0] : null);
  const newSheet = page === 'sheets' && rest[0] === 'new';
  const knowledgeId = page === 'knowledge' ? (idFrom('sol') ?? idFrom('snp')) : undefined;
  const badLink =
    (idFrom('sht') === null && page === 'sheets' && !newSheet) ||
    (idFrom('ses') === null && page === 'sessions') ||
    knowledgeId === null ||
    (idFrom('td') === null && page === 'todos') ||
    (idFrom('wsp') === null && page === 'workspaces') ||
    // Only the briefing page reads a query; on a record's page one is a crafted link (#/sheets/<id>?permanent=true).
    (page !== 'briefing' && rest.length > 0 && location.hash.includes('?'));
  const link = (p: { path: string; label: string }) => (
    <a key={p.path} href={`#/${p.path}`} class={page === p.path ? 'active' : ''} aria-current={page === p.path ? 'page' : undefined}>
      {p.label}
    </a>
  );
  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="#/workspaces" title="Workspaces and invitations">
          Sheet Workspace
        </a>
        <WorkspaceSwitcher me={me} />
        <button type="button" class="small ghost menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav id="main-nav" class={menuOpen ? 'open' : ''} aria-label="Pages">
          {WORK_PAGES.map(link)}
          <span class="nav-gap" aria-hidden="true" />
          {SETTINGS_PAGES.map(link)}
        </nav>
        <button type="button" class="small ghost" onClick={() => setSearching(true)} aria-keyshortcuts="Control+K">
          Find <kbd>Ctrl K</kbd>
        </button>
        <span class="who">
          <span class={`badge badge-${me.plan}`}>{me.plan}</span>
          <button type="button" class="small ghost" onClick={signOut}>
            Sign out
          </button>
        </span>
      </header>
      <main class="content" key={workspace}>
        {badLink ? (
          <p class="notice error" role="alert">
            This link does not name a valid record. <a href={`#/${page}`}>Back to the list</a>
          </p>
        ) : page === 'webhooks' ? (
          <WebhooksPage me={me} />
        ) : page === 'sheets' ? (
          <SheetsPage sheetId={newSheet ? 'new' : (idFrom('sht') ?? undefined)} sub={rest[1]} />
        ) : page === 'sessions' ? (
          <SessionsPage sessionId={idFrom('ses') ?? undefined} />
        ) : page === 'briefing' ? (
          <BriefingPage query={hashQuery()} />
        ) : page === 'knowledge' ? (
          <KnowledgePage entryId={knowledgeId} />
        ) : page === 'todos' ? (
          <TodosPage todoId={idFrom('td') ?? undefined} />
        ) : page === 'stats' ? (
          <StatsPage />
        ) : page === 'sparks' ? (
          <SparksPage sheetId={idFrom('sht') ?? undefined} />
        ) : page === 'apps' ? (
          <ConnectedAppsPage />
        ) : page === 'workspaces' ? (
          <WorkspacesPage key={rest[0] || 'all'} me={me} workspaceId={idFrom('wsp') ?? undefined} />
        ) : page === 'join' ? (
          <WorkspacesPage key="all" me={me} joinToken={rest[0]} />
        ) : (
          <AccountPage me={me} />
        )}
      </main>
      {searching && me && <SearchDialog onClose={() => setSearching(false)} />}
    </div>
  );
}

render(<App />, document.getElementById('app')!);
