/** The consent page: plain server-rendered HTML, no script, every value escaped. */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** No framing (clickjacking) and no script; deliberately no form-action, which would block the redirect to the client. */
export const CONSENT_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const SCOPE_LABELS: Record<string, string> = {
  'sheets:read': 'Read your sheets',
  'sheets:write': 'Create, change and trash sheets',
  'sessions:read': 'Read saved sessions and handovers',
  'sessions:write': 'Save sessions and create handovers',
  'knowledge:read': 'Read the knowledge base',
  'knowledge:write': 'Change the knowledge base',
  'todos:read': 'Read todos',
  'todos:write': 'Change todos',
  'sparks:run': 'Run Sparks (AI actions)',
  'sparks:manage': 'Create and change your Sparks',
  'stats:read': 'Read work statistics',
  'stats:write': 'Log work time',
  'webhooks:manage': 'Manage webhooks',
  'keys:manage': 'Manage API keys and connected apps',
  'exports:create': 'Export sheets as download links',
  'workspaces:read': 'See your workspaces and their members',
  'workspaces:manage': 'Make, change and join workspaces; invite and remove members',
};

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2433}
h1{font-size:1.3rem}fieldset{border:1px solid #cfd6e4;border-radius:6px;margin:1rem 0}label{display:block;margin:.3rem 0}
input[type=password],input[type=text]{width:100%;padding:.4rem;box-sizing:border-box}.host{font-family:monospace}
.err{color:#a4161a;font-weight:600}button{padding:.5rem 1.2rem;margin-right:.5rem;font-size:1rem}`;

export interface ConsentView {
  clientName: string;
  redirectHost: string;
  scopes: string[];
  /** The authorization request, carried through the form unchanged. */
  params: Record<string, string>;
  csrf: string;
  signedInAs?: string;
  /** The signed-in person's workspaces to pick from (personal first); without a session the id is typed. */
  workspaces?: { id: string; name: string; personal: boolean }[];
  /** The workspace picked before (shown again with an error); default: the personal one. */
  workspaceId?: string;
  error?: string;
}

/** Which one workspace the app may reach: a choice among the signed-in person's, else a typed id. */
function workspaceField(v: ConsentView): string {
  if (v.workspaces?.length) {
    const chosen = v.workspaces.some((w) => w.id === v.workspaceId) ? v.workspaceId : v.workspaces[0]!.id;
    const options = v.workspaces
      .map((w) => `<label><input type="radio" name="workspace_id" value="${esc(w.id)}"${w.id === chosen ? ' checked' : ''}> ${esc(w.personal ? 'Personal' : w.name)} <small>(${esc(w.id)})</small></label>`)
      .join('');
    return `<fieldset><legend>In the workspace</legend>${options}</fieldset>`;
  }
  return `<label for="workspace_id">Workspace (wsp_..., as GET /v1/workspaces lists them; empty: your personal one, or the one the key is restricted to)</label>
<input id="workspace_id" name="workspace_id" type="text" autocomplete="off" value="${esc(v.workspaceId ?? '')}" placeholder="wsp_...">`;
}

export function consentPage(v: ConsentView): string {
  const hidden = Object.entries(v.params)
    .map(([k, val]) => `<input type="hidden" name="${esc(k)}" value="${esc(val)}">`)
    .join('');
  const boxes = v.scopes.map((s) => `<label><input type="checkbox" name="scope_choice" value="${esc(s)}" checked> ${esc(SCOPE_LABELS[s] ?? s)} <small>(${esc(s)})</small></label>`).join('');
  const who = v.signedInAs
    ? `<p>Signed in to the console as <strong>${esc(v.signedInAs)}</strong>.</p>`
    : `<label for="api_key">API key</label><input id="api_key" name="api_key" type="password" autocomplete="off" placeholder="sk_..." required>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Connect ${esc(v.clientName)} to Sheet Workspace</title><style>${STYLE}</style></head><body>
<h1>Connect <span id="client-name">${esc(v.clientName)}</span> to Sheet Workspace?</h1>
<p>After you allow it, you return to <span class="host" id="redirect-host">${esc(v.redirectHost)}</span>.</p>
${v.error ? `<p class="err" role="alert">${esc(v.error)}</p>` : ''}
<form method="post" action="/oauth/authorize">${hidden}<input type="hidden" name="csrf_token" value="${esc(v.csrf)}">
<fieldset><legend>It may</legend>${boxes}</fieldset>
${workspaceField(v)}
${who}
<p><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form></body></html>`;
}

/** When there is no trustworthy redirect_uri to send an error to (unknown client, foreign redirect). */
export function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cannot connect</title><style>${STYLE}</style></head><body>
<h1>This app cannot connect</h1><p class="err" role="alert">${esc(message)}</p></body></html>`;
}
