// Removes private text and secret-looking strings before anything leaves the machine.
// Over-removal is the safe side: a summary with one word too few beats a leaked key.

export const REDACTED = '[REDACTED]';
export const PRIVATE = '[PRIVATE]';

const PRIVATE_BLOCK = /<private>[\s\S]*?(?:<\/private>|$)/gi;
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g;

/** Whole-match secrets: the token itself goes. */
const TOKENS = [
  /\bsk[-_](?:live|test|proj|ant|svcacct|admin)[-_][A-Za-z0-9_-]+/g, // Stripe, OpenAI, Anthropic style
  /\bsk[-_][A-Za-z0-9_-]{12,}/g, // this service's keys (sk_ + base64url) and other sk- keys
  /\b(?:rk|pk)_(?:live|test)_[A-Za-z0-9]{8,}/g,
  /\bwhsec_[A-Za-z0-9_-]{8,}/g,
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{12,}\b/g, // AWS access key ids
  /\bgh[pousr]_[A-Za-z0-9_]+/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]+/g,
  /\bglpat-[A-Za-z0-9_-]{8,}/g, // GitLab
  /\bxox[abprse]-[A-Za-z0-9-]+/g, // Slack
  /\bAIza[0-9A-Za-z_-]{20,}/g, // Google API keys
  /\bnpm_[A-Za-z0-9]{20,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWTs
];

/** name = value / "name": "value" / name: value -> the name stays, the value goes. */
const ASSIGNMENT =
  /(["']?)\b((?:[A-Za-z0-9_]*[_-])?(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|auth|credentials?)(?:[_-][A-Za-z0-9_]*)?)\1(\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;&"'<>)\]}]+)/gi;
const BEARER = /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}/g;
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi;

/** Text with <private> blocks and secret-looking strings removed. */
export function redact(text) {
  if (typeof text !== 'string' || text === '') return text ?? '';
  let out = text.replace(PRIVATE_BLOCK, PRIVATE).replace(PRIVATE_KEY, REDACTED);
  out = out.replace(URL_PASSWORD, `$1${REDACTED}@`);
  out = out.replace(ASSIGNMENT, (_m, q, name, sep) => `${q}${name}${q}${sep}${REDACTED}`);
  out = out.replace(BEARER, `$1$2${REDACTED}`);
  for (const re of TOKENS) out = out.replace(re, REDACTED);
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
