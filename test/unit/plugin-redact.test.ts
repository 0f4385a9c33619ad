import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LOOK_ALIKES, secretCorpus } from '../fixtures/secret-corpus.js';
import { buildSession, parseTranscript, redact, redactDeep, redactRules } from '../plugin-modules.js';

/** Every rule applied whatever the text holds: what redact must equal, its needles being only a shortcut. */
function redactEveryRule(text: string): string {
  return redactRules.reduce((out, rule) => (rule.apply ? rule.apply(out) : out.replace(rule.re!, (rule.to ?? '[REDACTED]') as string)), text);
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
    const out = redactDeep({ todos: [{ content: 'Rotate ghp_xxx soon', status: 'pending' }], sk_live_abcdefghij: 1 });
    assert.deepEqual(out, { todos: [{ content: 'Rotate [REDACTED] soon', status: 'pending' }], '[REDACTED]': 1 });
  });

  it('skips a rule only when the text cannot match it: the same output as every rule applied, over 3,000 mixed texts', () => {
    // Fragments that come near each rule, in both cases, with separators that make or break a match.
    const parts = [
      'PASSWORD',
      'Passwd',
      'pwd',
      'Secret',
      'TOKEN',
      'Token',
      'api-Key',
      'ACCESS_KEY',
      'Auth',
      'CREDENTIALS',
      '=',
      ': ',
      '"',
      "'",
      'hunter2',
      '<PRIVATE>',
      '<private>',
      '</private>',
      '-----BEGIN RSA PRIVATE KEY-----',
      'Bearer ',
      'Basic ',
      'abcdefghijkl',
      'HTTPS://',
      'user',
      ':',
      'pw',
      '@',
      'host',
      'sk_',
      'sk-',
      'live_',
      'pk_test_',
      'whsec_',
      'AKIA',
      'ABCDEFGHIJKLMNOP',
      'ghp_',
      'github_pat_',
      'glpat-',
      'xoxb-',
      'AIza',
      'npm_',
      'eyJ',
      '.',
      ' ',
      '\n',
      '東京',
      'K',
      'ſ',
      'ı',
      'swat_',
      'inv_',
      '/s/',
      'Cookie: ',
      'curl -u ',
      'mysql -p',
      'docker login -p ',
      '@tcp(',
      'hooks.slack.com/services/',
      'SG.',
      'GOCSPX-',
      'hf_',
      'AC',
      'dbPassword',
      'PGPASSWORD',
      '_KEY',
      ' = ',
      'getPassword()',
      'None',
      '--password ',
      'sig',
      'Sig',
    ];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 3000; i++) {
      let text = '';
      for (let n = 1 + (next() % 12); n > 0; n--) text += parts[next() % parts.length];
      assert.equal(redact(text), redactEveryRule(text), JSON.stringify(text));
    }
  });

  describe('a corpus of realistic secrets (generated, seeded) and one of look-alikes', () => {
    const corpus = secretCorpus();

    it(`holds at least 200 secrets of every kind the audit listed (${corpus.length})`, () => {
      assert.ok(corpus.length >= 200, String(corpus.length));
      assert.ok(new Set(corpus.map((c) => c.kind)).size >= 60);
    });

    it('no secret of the corpus survives in its context', () => {
      const leaked = corpus.filter((c) => redact(c.text).includes(c.secret));
      assert.deepEqual(
        leaked.map((c) => `${c.kind}: ${redact(c.text)}`),
        [],
        `${leaked.length} of ${corpus.length} secrets went through`,
      );
    });

    it('every look-alike comes through unchanged', () => {
      const changed = LOOK_ALIKES.filter((t) => redact(t) !== t);
      assert.deepEqual(
        changed.map((t) => `${t} -> ${redact(t)}`),
        [],
      );
    });

    it('the look-alikes around a secret survive too: only the secret goes', () => {
      for (const c of corpus.slice(0, 60)) {
        const text = `${LOOK_ALIKES[0]}\n${c.text}\n${LOOK_ALIKES[5]}`;
        const out = redact(text);
        assert.equal(out.includes(c.secret), false, c.kind);
        assert.ok(out.startsWith(`${LOOK_ALIKES[0]}\n`) && out.endsWith(`\n${LOOK_ALIKES[5]}`), out);
      }
    });
  });

  it('values of a .env file the session read are removed where they turn up later in a prompt or a message', () => {
    const line = (o: unknown) => `${JSON.stringify(o)}\n`;
    const dbPass = 'Zq7vQx';
    const stripe = 'AbC123xYz789qwe';
    const exported = 'Lm3-Pp0_wQ9t';
    const transcript =
      line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: '/app/.env.local' } }] } }) +
      line({
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 'r1', content: `     1\tDB_PASS=${dbPass}\n     2\tNODE_ENV=production\n     3\tBILLING=${stripe}\n     4\tPORT=8787` }] },
      }) +
      line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'cat config/prod.env' } }] } }) +
      line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'b1', content: [{ type: 'text', text: `export API="${exported}"` }] }] } }) +
      line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'r2', name: 'Read', input: { file_path: '/app/README.md' } }] } }) +
      line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'r2', content: 'EXAMPLE=NotFromEnv123' }] } }) +
      line({ type: 'user', message: { role: 'user', content: `try ${dbPass}, then ${stripe} and ${exported} in production on 8787 (not NotFromEnv123)` } }) +
      line({ type: 'assistant', message: { content: [{ type: 'text', text: `Connected with ${dbPass}.` }] } });
    const body = buildSession({ parsed: parseTranscript(transcript), project: 'p', root: '/app', sessionId: 's1234567' })!;
    for (const v of [dbPass, stripe, exported]) assert.equal(`${body.title}${body.summary}`.includes(v), false, v);
    assert.match(body.summary, /try \[REDACTED\], then \[REDACTED\] and \[REDACTED\] in production on 8787 \(not NotFromEnv123\)/);
    assert.match(body.summary, /Connected with \[REDACTED\]\./);
  });

  it('runs in time linear in the text: adversarial inputs of 200,000 characters finish well within a generous bound', () => {
    const n = 200_000;
    const fill = (unit: string, tail = '') => unit.repeat(Math.ceil(n / unit.length)).slice(0, n) + tail;
    const inputs = [
      fill('a'),
      fill('a.'),
      fill('a-'),
      fill('password='),
      fill('"password":'),
      fill('password: string '),
      fill('x:'),
      fill('a:b'),
      fill('AKIA', '_'),
      fill('AKIA-'),
      fill('eyJ-'),
      fill('eyJa.'),
      fill('sk-'),
      fill('gh'),
      fill('h://'),
      fill('a://b:'),
      fill('mysql '),
      fill('docker login '),
      fill('redis-cli '),
      fill(' -u a:'),
      fill(' --password'),
      fill('<private>'),
      fill('-----BEGIN RSA PRIVATE KEY-----'),
      fill('Bearer '),
      fill('cookie:'),
      fill('/s/'),
      fill('hooks.slack.com/services/'),
      fill('u:p@'),
      fill('SG.aaaaaaaaaaaaaaaa'),
      fill('$env:API_KEY = '),
      fill('token: T = '),
      fill('"a": "'),
      fill('key=key=key='),
    ];
    let worst = 0;
    for (const text of inputs) {
      const started = performance.now();
      redact(text);
      const ms = performance.now() - started;
      worst = Math.max(worst, ms);
      // Quadratic work on 200,000 characters takes minutes; linear takes milliseconds. 3 s leaves room for a busy machine.
      assert.ok(ms < 3000, `${JSON.stringify(text.slice(0, 30))}...: ${Math.round(ms)} ms`);
    }
    // And it scales with the input: ten times the text takes no more than ~10x (+ slack), never ~100x.
    const small = fill('a.a-password=x:'.repeat(3)).slice(0, 20_000);
    const big = small.repeat(10);
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) redact(small);
    const tSmall = (performance.now() - t0) / 5;
    const t1 = performance.now();
    redact(big);
    const tBig = performance.now() - t1;
    assert.ok(tBig < tSmall * 30 + 200, `20,000 chars: ${tSmall.toFixed(1)} ms, 200,000: ${tBig.toFixed(1)} ms (worst adversarial: ${Math.round(worst)} ms)`);
  });
});
