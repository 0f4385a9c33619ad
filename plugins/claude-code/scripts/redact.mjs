// Removes private text and secret-looking strings before anything leaves the machine.
// Over-removal is the safe side: a summary with one word too few beats a leaked key.

export const REDACTED = '[REDACTED]';
export const PRIVATE = '[PRIVATE]';

/**
 * Each rule in the order it runs. `needles`: strings every match contains (in the lower-cased text when `lower`), so a
 * text holding none of them skips the rule: a regular expression is compiled on its first use, and compiling these
 * cost a hook ~1.8 ms, most of its own work, for texts ("Bench the hooks") that hold no secret at all.
 */
export const RULES = [
  { re: /<private>[\s\S]*?(?:<\/private>|$)/gi, to: PRIVATE, needles: ['<private>'], lower: true },
  {
    re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    to: REDACTED,
    needles: ['-----BEGIN '],
  },
  { re: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, to: `$1${REDACTED}@`, needles: ['://'] },
  // name = value / "name": "value" / name: value -> the name stays, the value goes.
  {
    re: /(["']?)\b((?:[A-Za-z0-9_]*[_-])?(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|auth|credentials?)(?:[_-][A-Za-z0-9_]*)?)\1(\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;&"'<>)\]}]+)/gi,
    to: (_m, q, name, sep) => `${q}${name}${q}${sep}${REDACTED}`,
    needles: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'credential'],
    lower: true,
  },
  { re: /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}/g, to: `$1$2${REDACTED}`, needles: ['Bearer', 'Basic', 'Token'] },
  // Whole-match secrets: the token itself goes.
  { re: /\bsk[-_](?:live|test|proj|ant|svcacct|admin)[-_][A-Za-z0-9_-]+/g, needles: ['sk-', 'sk_'] }, // Stripe, OpenAI, Anthropic style
  { re: /\bsk[-_][A-Za-z0-9_-]{12,}/g, needles: ['sk-', 'sk_'] }, // this service's keys (sk_ + base64url) and other sk- keys
  { re: /\b(?:rk|pk)_(?:live|test)_[A-Za-z0-9]{8,}/g, needles: ['k_live_', 'k_test_'] },
  { re: /\bwhsec_[A-Za-z0-9_-]{8,}/g, needles: ['whsec_'] },
  { re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{12,}\b/g, needles: ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA'] }, // AWS access key ids
  { re: /\bgh[pousr]_[A-Za-z0-9_]+/g, needles: ['gh'] }, // GitHub tokens
  { re: /\bgithub_pat_[A-Za-z0-9_]+/g, needles: ['github_pat_'] },
  { re: /\bglpat-[A-Za-z0-9_-]{8,}/g, needles: ['glpat-'] }, // GitLab
  { re: /\bxox[abprse]-[A-Za-z0-9-]+/g, needles: ['xox'] }, // Slack
  { re: /\bAIza[0-9A-Za-z_-]{20,}/g, needles: ['AIza'] }, // Google API keys
  { re: /\bnpm_[A-Za-z0-9]{20,}/g, needles: ['npm_'] },
  { re: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, needles: ['eyJ'] }, // JWTs
];

/** Text with <private> blocks and secret-looking strings removed. */
export function redact(text) {
  if (typeof text !== 'string' || text === '') return text ?? '';
  let out = text;
  for (const rule of RULES) {
    // Case-insensitive rules match ASCII letters only against ASCII letters, so the lower-cased text holds their needles.
    const haystack = rule.lower ? out.toLowerCase() : out;
    if (rule.needles.some((n) => haystack.includes(n))) out = out.replace(rule.re, rule.to ?? REDACTED);
  }
  return out;
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
