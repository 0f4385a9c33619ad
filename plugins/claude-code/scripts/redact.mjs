// Removes private text and secret-looking strings before anything leaves the machine.
// Over-removal is the safe side: a summary with one word too few beats a leaked key.
// Every rule runs in time linear in the text: a token rule starts only where a run of its characters starts (a
// lookbehind, not \b, which also holds inside runs of '-' or '.'), and every other repeat is bounded or ends the match.
import { redactAssignments } from './redact-assign.mjs';

export const REDACTED = '[REDACTED]';
export const PRIVATE = '[PRIVATE]';

/** A token: `prefix` then at least `min` of `chars`, starting where no character of the token's alphabet stands before it. */
const token = (prefix, chars, min, flags = 'g') => new RegExp(`(?<![A-Za-z0-9_-])${prefix}[${chars}]{${min},}`, flags);
const B64URL = 'A-Za-z0-9_-';

/** `Bearer x`, `Basic x`, `Token x`: a credential, not a word of prose ("Basic authentication"): long, or with digits or symbols. */
const credential = (m, scheme, space, value) => (value.length >= 16 || /[\d._~+/=-]/.test(value) ? `${scheme}${space}${REDACTED}` : m);

/**
 * Each rule in the order it runs. `needles`: strings every match contains (in the lower-cased text when `lower`), so a
 * text holding none of them skips the rule: a regular expression is compiled on its first use, and compiling these
 * cost a hook ~1.8 ms, most of its own work, for texts ("Bench the hooks") that hold no secret at all. `apply`: a rule
 * that is a function of the text rather than one replace.
 */
export const RULES = [
  { re: /<private>[\s\S]*?(?:<\/private>|$)/gi, to: PRIVATE, needles: ['<private>'], lower: true },
  {
    re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g,
    to: REDACTED,
    needles: ['-----BEGIN '],
  },
  // scheme://user:password@host (user may be empty: redis://:pw@host); user:password@tcp(host) (Go DSNs).
  { re: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]{0,200}:)[^\s@/]{1,500}@/gi, to: `$1${REDACTED}@`, needles: ['://'] },
  { re: /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]{1,64}:)[^\s:@/"'()]{1,500}@(?=(?:tcp|unix|udp)?\()/g, to: `$1${REDACTED}@`, needles: ['@'] },
  // Links whose path holds a credential: this service's shares (/s/, /v1/shared/), exports and invitations.
  { re: /(\/(?:s|v1\/shared|v1\/exports|exports|v1\/invitations)\/)[A-Za-z0-9_-]{40,}/g, to: `$1${REDACTED}`, needles: ['/s/', '/shared/', '/exports/', '/invitations/'] },
  { re: /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9/_-]{8,}/gi, to: `$1${REDACTED}`, needles: ['hooks.slack.com/'], lower: true },
  { re: /(discord(?:app)?\.com\/api\/webhooks\/)[0-9]{5,30}\/[A-Za-z0-9_-]{8,}/gi, to: `$1${REDACTED}`, needles: ['/api/webhooks/'], lower: true },
  { re: /\b((?:set-)?cookie[ \t]*:[ \t]*)[^\r\n]+/gi, to: `$1${REDACTED}`, needles: ['cookie'], lower: true },
  { re: /\b(Bearer|Basic|Token|Digest|Bot)([ \t]+)([A-Za-z0-9._~+/=-]{8,})/g, to: credential, needles: ['Bearer', 'Basic', 'Token', 'Digest', 'Bot'] },
  // Passwords on command lines: curl -u user:pw, mysql -ppw, docker login -p pw, sshpass -p pw, redis-cli -a pw, --password pw.
  { re: /((?:^|\s)(?:-u|--user)(?:[ \t]+|=)?["']?[^\s:"']{1,100}:)[^\s"']{1,500}/g, to: `$1${REDACTED}`, needles: ['-u', '--user'] },
  { re: /(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb)\b[^\n]{0,300}?[ \t]-p)([^\s-][^\s]{0,500})/g, to: `$1${REDACTED}`, needles: ['mysql', 'mariadb'] },
  {
    re: /(\b(?:docker|podman|nerdctl|helm|buildah|skopeo)[ \t]+(?:registry[ \t]+)?login\b[^\n]{0,300}?[ \t](?:-p|--password)(?:[ \t]+|=))([^\s-]\S{0,500})/g,
    to: `$1${REDACTED}`,
    needles: ['login'],
  },
  { re: /(\bsshpass[ \t]+-p[ \t]*)(\S{1,500})/g, to: `$1${REDACTED}`, needles: ['sshpass'] },
  { re: /(\bredis-cli\b[^\n]{0,300}?[ \t](?:-a|--pass)[ \t]+)(\S{1,500})/g, to: `$1${REDACTED}`, needles: ['redis-cli'] },
  {
    re: /((?:^|\s)--(?:[a-z0-9]+-){0,3}(?:password|passwd|pass|token|secret|api-key|apikey|access-key|secret-key|auth-token)[ \t]+)([^\s-]\S{0,500})/gi,
    to: `$1${REDACTED}`,
    needles: ['--'],
  },
  { apply: (text) => redactAssignments(text, REDACTED), needles: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'credential', 'sig', 'cookie'], lower: true },
  // Whole-token secrets: the token itself goes.
  { re: token('sw(?:at|rt|ac)_', B64URL, 20), needles: ['swat_', 'swrt_', 'swac_'] }, // this service's OAuth tokens
  { re: token('inv_', B64URL, 40), needles: ['inv_'] }, // its invitation tokens (an invitation's id, inv_ + 26, is none)
  { re: token('sk[-_](?:live|test|proj|ant|svcacct|admin)[-_]', B64URL, 1), needles: ['sk-', 'sk_'] }, // Stripe, OpenAI, Anthropic
  { re: token('sk[-_]', B64URL, 12), needles: ['sk-', 'sk_'] }, // this service's keys (sk_ + base64url) and other sk- keys
  { re: token('(?:rk|pk)_(?:live|test)_', 'A-Za-z0-9', 8), needles: ['k_live_', 'k_test_'] }, // Stripe restricted and publishable
  { re: token('whsec_', B64URL, 8), needles: ['whsec_'] },
  { re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[0-9A-Z]{12,40}(?![A-Za-z0-9])/g, needles: ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'ANPA', 'ANVA', 'APKA'] }, // AWS ids
  { re: token('gh[pousr]_', 'A-Za-z0-9_', 1), needles: ['gh'] }, // GitHub tokens
  { re: token('github_pat_', 'A-Za-z0-9_', 1), needles: ['github_pat_'] },
  { re: token('glpat-', B64URL, 8), needles: ['glpat-'] }, // GitLab
  { re: token('xox[abprse]-', 'A-Za-z0-9-', 1), needles: ['xox'] }, // Slack
  { re: token('xapp-', 'A-Za-z0-9-', 8), needles: ['xapp-'] },
  { re: token('AIza', B64URL, 20), needles: ['AIza'] }, // Google API keys
  { re: token('GOCSPX-', B64URL, 16), needles: ['GOCSPX-'] }, // Google OAuth client secrets
  { re: /(?<![A-Za-z0-9_.-])ya29\.[A-Za-z0-9_-]{20,}/g, needles: ['ya29.'] }, // Google OAuth access tokens
  { re: token('npm_', 'A-Za-z0-9', 20), needles: ['npm_'] },
  { re: token('hf_', 'A-Za-z0-9', 20), needles: ['hf_'] }, // Hugging Face
  { re: /(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, needles: ['SG.'] }, // SendGrid
  { re: /(?<![A-Za-z0-9])(?:AC|SK)[0-9a-f]{32}(?![A-Za-z0-9])/g, needles: ['AC', 'SK'] }, // Twilio account and API key ids
  { re: token('(?:shpat|shpss|shpca|shppa)_', 'A-Fa-f0-9', 16), needles: ['shp'] }, // Shopify
  { re: token('dop_v1_', 'a-f0-9', 32), needles: ['dop_v1_'] }, // DigitalOcean
  { re: token('lin_api_', 'A-Za-z0-9', 20), needles: ['lin_api_'] }, // Linear
  { re: token('pypi-', B64URL, 40), needles: ['pypi-'] },
  { re: token('PMAK-', 'A-Za-z0-9-', 20), needles: ['PMAK-'] }, // Postman
  { re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, needles: ['eyJ'] }, // JWTs
];

/** Text with <private> blocks and secret-looking strings removed. */
export function redact(text) {
  if (typeof text !== 'string' || text === '') return text ?? '';
  let out = text;
  for (const rule of RULES) {
    // Case-insensitive rules match ASCII letters only against ASCII letters, so the lower-cased text holds their needles.
    const haystack = rule.lower ? out.toLowerCase() : out;
    if (!rule.needles.some((n) => haystack.includes(n))) continue;
    out = rule.apply ? rule.apply(out) : out.replace(rule.re, rule.to ?? REDACTED);
  }
  return out;
}

/**
 * `redact`, after removing each of `literals` wherever it stands (values a session read from a .env file, found in
 * its transcript: transcript.mjs). Longest first, so a value that holds another goes whole.
 */
export function redactWith(literals) {
  const values = [...new Set(literals)].filter((v) => typeof v === 'string' && v.length >= 4).sort((a, b) => b.length - a.length);
  if (values.length === 0) return redact;
  return (text) => {
    if (typeof text !== 'string' || text === '') return redact(text);
    let out = text;
    for (const v of values) if (out.includes(v)) out = out.split(v).join(REDACTED);
    return redact(out);
  };
}

/** Every string inside a JSON-like value redacted (keys too, they can hold text). */
export function redactDeep(value) {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[redact(k)] = redactDeep(v);
    return out;
  }
  return value;
}
