// `name = value` / `"name": "value"` / `name: value` / `--name=value` / `name := value` / `'name' => 'value'`: when the
// name ends in a secret word (password, DB_PASS, PGPASSWORD, ENCRYPTION_KEY, clientSecret, SecretAccessKey, _authToken,
// AccountKey, ...) in any case style, the value goes and the name stays. Code that holds no literal value stays too:
// `const password = getPassword()`, `token: string`, `secret = config.secret`, `password=None`.
// Linear time: a name starts only where a run of name characters starts (the lookbehind), and a value the check leaves
// is scanned again from its own start, once.

/** The secret words a name may end in (its last word, lower-cased: `dbPassword` -> `password`, `PGPASSWORD` -> `pgpassword`). */
const SECRET_END = /(?:password|passwd|passphrase|pass|pwd|secret|token|key|auth|credential|credentials|signature|sig|cookie|apikey)s?$/;
/** Last words that end like a secret word and are none. */
const NOT_SECRET = new Set(['monkey', 'donkey', 'turkey', 'hockey', 'jockey', 'whiskey', 'hotkey', 'turnkey', 'bypass', 'compass', 'encompass', 'trespass', 'overpass', 'underpass', 'surpass']);
/** A last word after the secret word that still names its value: SECRET_KEY_BASE, TOKEN_VALUE. */
const VALUE_SUFFIX = new Set(['base', 'value', 'b64', 'base64', 'hex', 'raw', 'plain', 'str']);
/** Shell variables with a secret word in their name that hold no secret. */
const NAMES_NOT_SECRET = new Set(['PWD', 'OLDPWD']);

const LAST_WORD = /(?:[A-Z]?[a-z0-9]+|[A-Z0-9]+)$/;

/** Whether an assignment's name names a secret. */
export function secretName(name) {
  if (NAMES_NOT_SECRET.has(name)) return false;
  let rest = name.slice(-64);
  for (let i = 0; i < 2; i++) {
    const word = LAST_WORD.exec(rest)?.[0];
    if (!word) return false;
    const lower = word.toLowerCase();
    if (SECRET_END.test(lower)) return !NOT_SECRET.has(lower);
    if (!VALUE_SUFFIX.has(lower)) return false;
    rest = rest.slice(0, -word.length).replace(/[_.$-]+$/, '');
  }
  return false;
}

/** Values that are code, not a literal: types, keywords, empty markers. */
const CODE_WORDS = new Set(
  'null undefined none nil true false string number boolean bool str int integer bytes any unknown object optional char secretstr securestring await new yield typeof function lambda async this self'.split(' '),
);
/** Roots of a member access that reads a secret from somewhere else: process.env.X, config.secret, self.password. */
const CODE_ROOTS = new Set(
  'process os env environ config cfg conf settings self this options opts args params req request ctx context secrets credentials creds props state data user input form values window import deno system environment app st'.split(
    ' ',
  ),
);
const MEMBER = /^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$/;
const IDENT = /^[A-Za-z_][A-Za-z_]*$/;

/** Whether a matched value is a literal to remove (`next`: the character after it; `spaced`: ` = ` rather than `=`). */
function literal(value, next, spaced, sep = '') {
  const first = value[0];
  if (first === '"' || first === "'" || first === '`')
    return (
      value
        .slice(1)
        .replace(/["'`]$/, '')
        .trim() !== ''
    );
  if (next === '(' || first === '$' || first === '%' || first === '@') return false; // a call, $VAR / ${VAR} / $(cmd), %ENV%, @Value
  if (sep === ':' && /^[A-Z][A-Za-z]*$/.test(value) && ',);|&>[='.includes(next ?? '')) return false; // a type: (secret: Buffer)
  const lower = value.toLowerCase();
  if (CODE_WORDS.has(lower) || /^\d{1,3}$/.test(value)) return false;
  if (MEMBER.test(value)) {
    const parts = value.split(/\.|::|->/);
    if (CODE_ROOTS.has(parts[0].toLowerCase()) || secretName(parts[parts.length - 1])) return false;
  }
  // `password = newPassword`, `token: accessToken`: a variable named for what it holds.
  if (spaced && IDENT.test(value) && secretName(value)) return false;
  return true;
}

const NAME_CHARS = 'A-Za-z0-9_.$-';
const VALUE = '("[^"\\n]*"?|\'[^\'\\n]*\'?|`[^`\\n]*`?|[^\\s,;&"\'`<>(){}\\[\\]]+)';
/** q: an optional quote around the name; then the name, the separator, and a value that does not start a comparison. */
const ASSIGN = new RegExp(`(["'\`]?)(?<![${NAME_CHARS}])([${NAME_CHARS}]+)\\1([ \\t]*(?::=|=>|=|:)[ \\t]*)(?![=:>])${VALUE}`, 'g');
/** After `name: Type` (a typed declaration), the value after `=`: `const apiKey: string = "..."`. */
const TYPED_VALUE = new RegExp(`[ \\t]*(?:[|&][ \\t]*[\\w.<>\\[\\]]+[ \\t]*){0,4}=[ \\t]*(?![=>])${VALUE}`, 'y');

/** The text with the value of every secret-named assignment replaced by `redacted`. */
export function redactAssignments(text, redacted) {
  ASSIGN.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let m = ASSIGN.exec(text); m; m = ASSIGN.exec(text)) {
    const [whole, , name, sep, value] = m;
    const end = m.index + whole.length;
    const valueStart = end - value.length;
    if (secretName(name)) {
      if (literal(value, text[end], /\s/.test(sep), sep.trim())) {
        out += text.slice(last, valueStart) + redacted;
        last = end;
        continue;
      }
      if (sep.trim() === ':' && IDENT.test(value)) {
        TYPED_VALUE.lastIndex = end;
        const typed = TYPED_VALUE.exec(text);
        if (typed && literal(typed[1], text[TYPED_VALUE.lastIndex], true)) {
          out += text.slice(last, TYPED_VALUE.lastIndex - typed[1].length) + redacted;
          last = TYPED_VALUE.lastIndex;
          ASSIGN.lastIndex = last;
          continue;
        }
      }
    }
    // Not removed: the value may itself start an assignment (`$env:API_KEY = "..."`, `"url": "https://x?token=..."`).
    ASSIGN.lastIndex = valueStart;
  }
  return last === 0 ? text : out + text.slice(last);
}
