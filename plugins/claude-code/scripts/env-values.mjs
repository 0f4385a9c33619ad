// The values of the .env files a session read, from its transcript: a value that turns up later in a prompt or a message
// is removed there, even where nothing around it says it is a secret.
import { secretName } from './redact-assign.mjs';

/** At most this many values are kept from one transcript, each at most this long. */
const MAX_VALUES = 500;
const MAX_VALUE_CHARS = 2000;

/** A .env file's name: .env, .env.local, .env.production, prod.env. */
const ENV_FILE = /(?:^|[\\/])(?:\.env(?:\.[\w.-]*)?|[\w.-]+\.env)$/;
const ENV_IN_COMMAND = /(?:^|[\s\\/'"=<])(?:\.env(?:\.[\w.-]*)?|[\w.-]+\.env)(?=$|[\s'";|&)>])/;

/** Whether an assistant's tool call reads a .env file: Read of one, or a Bash command that names one (cat .env). */
export function readsEnvFile(block) {
  const input = block?.input;
  if (!input || typeof block.id !== 'string') return false;
  if (block.name === 'Read') return typeof input.file_path === 'string' && ENV_FILE.test(input.file_path);
  if (block.name === 'Bash') return typeof input.command === 'string' && ENV_IN_COMMAND.test(input.command);
  return false;
}

const LINE = /^\s*(?:\d+(?:→|\t))?\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/;
/** Values that say nothing secret even in a .env file: flags, numbers, plain words, paths, URLs without a password. */
const PLAIN = /^(?:\d+|[Tt]rue|TRUE|[Ff]alse|FALSE|[a-z]+(?:[._-][a-z0-9]+)*|[A-Z]+(?:_[A-Z]+)*|\.{0,2}\/\S*|~\/\S*|https?:\/\/[^@\s]*)$/;

/** Adds the values of the KEY=value lines of a tool result (text, or text blocks) to `into`. */
export function envValues(content, into) {
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (typeof b?.text === 'string' ? b.text : '')).join('\n') : '';
  for (const line of text.split('\n')) {
    if (into.size >= MAX_VALUES) return;
    const m = LINE.exec(line.length > MAX_VALUE_CHARS + 200 ? '' : line);
    if (!m) continue;
    let value = m[2];
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2];
    else value = value.replace(/\s+#.*$/, '');
    if (value.length < 4 || value.length > MAX_VALUE_CHARS) continue;
    // A secret-named variable's value goes whatever it looks like; any other only when it looks like a credential.
    if (secretName(m[1]) || (value.length >= 8 && !PLAIN.test(value))) into.add(value);
  }
}
