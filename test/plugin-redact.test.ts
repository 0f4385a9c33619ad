import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redact, redactDeep, redactRules } from './plugin-modules.js';

/** Every rule applied whatever the text holds: what redact must equal, its needles being only a shortcut. */
function redactEveryRule(text: string): string {
  return redactRules.reduce((out, rule) => out.replace(rule.re, (rule.to ?? '[REDACTED]') as string), text);
}

describe('plugin redaction', () => {
  const secrets = [
    'sk_live_51HqLyjWDarjtT1zdp7dcXYZ',
    `sk_${'Ab3_-'.repeat(9)}`, // this service's own keys: sk_ + 43 base64url characters
    'sk-proj-abcdefghijklmnop1234',
    'sk-ant-api03-abcdefghijklmnopqrstuv',
    'AKIAIOSFODNN7EXAMPLE',
    'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    'gho_abcdefghij',
    'github_pat_11ABCDEFG0abcdefghijklmnopqrstuvwxyz',
    'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp',
    'xoxp-1-2-3-abc',
    'whsec_abcdefghijklmnopqrstuvwxyz012345',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  ];
  for (const secret of secrets) {
    it(`removes ${secret.slice(0, 8)}…`, () => {
      const out = redact(`deploy with ${secret} now`);
      assert.equal(out.includes(secret), false, out);
      assert.match(out, /^deploy with \[REDACTED\] now$/);
    });
  }

  it('removes <private> blocks across lines, several per text, and an unclosed one to the end', () => {
    assert.equal(redact('a <private>my\nhome address</private> b <PRIVATE>x</PRIVATE> c'), 'a [PRIVATE] b [PRIVATE] c');
    assert.equal(redact('keep <private>never closed\nstill private'), 'keep [PRIVATE]');
  });

  it('removes private key blocks, closed or cut off', () => {
    const block = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----';
    assert.equal(redact(`key:\n${block}\nafter`), 'key:\n[REDACTED]\nafter');
    assert.equal(redact('-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA'), '[REDACTED]');
  });

  it('keeps the name of password= / secret= / token= assignments and removes the value', () => {
    assert.equal(redact('password=hunter2 and more'), 'password=[REDACTED] and more');
    assert.equal(redact('DB_PASSWORD: "correct horse"'), 'DB_PASSWORD: [REDACTED]');
    assert.equal(redact('{"client_secret": "s3cr3t", "name": "x"}'), '{"client_secret": [REDACTED], "name": "x"}');
    assert.equal(redact('export GITHUB_TOKEN=abc123;'), 'export GITHUB_TOKEN=[REDACTED];');
    assert.equal(redact('passwd=p4ss&user=me'), 'passwd=[REDACTED]&user=me');
    assert.equal(redact('Authorization: Bearer abcdefghijklmnop'), 'Authorization: Bearer [REDACTED]');
    assert.equal(redact('postgres://app:pa55word@db:5432/x'), 'postgres://app:[REDACTED]@db:5432/x');
  });

  it('leaves ordinary text alone', () => {
    const text = 'Refactor the token counter; the authentication flow uses sk-learn and the secret sauce is tests. ask_user 42';
    assert.equal(redact(text), text);
    assert.equal(redact(''), '');
  });

  it('redacts every string of a nested value, keys included', () => {
    const out = redactDeep({ todos: [{ content: 'Rotate ghp_xxx soon', status: 'pending' }], 'sk_live_abcdefghij': 1 });
    assert.deepEqual(out, { todos: [{ content: 'Rotate [REDACTED] soon', status: 'pending' }], '[REDACTED]': 1 });
  });

  it('skips a rule only when the text cannot match it: the same output as every rule applied, over 3,000 mixed texts', () => {
    // Fragments that come near each rule, in both cases, with separators that make or break a match.
    const parts = [
      'PASSWORD', 'Passwd', 'pwd', 'Secret', 'TOKEN', 'Token', 'api-Key', 'ACCESS_KEY', 'Auth', 'CREDENTIALS', '=', ': ', '"', "'",
      'hunter2', '<PRIVATE>', '<private>', '</private>', '-----BEGIN RSA PRIVATE KEY-----', 'Bearer ', 'Basic ', 'abcdefghijkl',
      'HTTPS://', 'user', ':', 'pw', '@', 'host', 'sk_', 'sk-', 'live_', 'pk_test_', 'whsec_', 'AKIA', 'ABCDEFGHIJKLMNOP', 'ghp_',
      'github_pat_', 'glpat-', 'xoxb-', 'AIza', 'npm_', 'eyJ', '.', ' ', '\n', '東京', 'K', 'ſ', 'ı',
    ];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 3000; i++) {
      let text = '';
      for (let n = 1 + (next() % 12); n > 0; n--) text += parts[next() % parts.length];
      assert.equal(redact(text), redactEveryRule(text), JSON.stringify(text));
    }
  });
});
