import { constants } from 'node:buffer';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { AppError } from '../../errors.js';

/** How much a zip given to `users import` may inflate to: the entries it reads together, and any one of them. */
export interface UnzipBounds {
  maxBytes: number;
  maxEntryBytes: number;
}

/**
 * One entry is read as one JavaScript string, and V8 cannot make a string longer than this (512 MiB less
 * 24 bytes on 64-bit Node): an entry larger could never be imported, whatever the memory, so this is both
 * the default per-entry bound and the most it may be set to.
 */
export const IMPORT_MAX_ENTRY_BYTES = constants.MAX_STRING_LENGTH;
/**
 * The entries the import reads, together (the Markdown copies are never inflated). The import holds them
 * all, parsed, before it writes anything, so its memory is a few times this: 1 GiB is e.g. 100,000 sheets
 * of 10 KB with revisions; a larger account raises it with --max-unpacked.
 */
export const IMPORT_MAX_BYTES = 1024 ** 3;
export const DEFAULT_UNZIP_BOUNDS: UnzipBounds = { maxBytes: IMPORT_MAX_BYTES, maxEntryBytes: IMPORT_MAX_ENTRY_BYTES };

/**
 * The zip is pushed in pieces this small: DEFLATE expands at most about 1,032 to 1, so one piece inflates
 * to at most ~16.5 MiB before the next check of the bounds.
 */
const PIECE = 16 * 1024;

const mib = (n: number) => `${(n / 1024 ** 2).toFixed(n % 1024 ** 2 === 0 ? 0 : 1)} MiB`;

/**
 * Inflates the entries of `zip` named in `wanted`, streaming, and stops as soon as they pass a bound:
 * first only counting (nothing kept, so a zip bomb is refused with a few MiB in use), then, within the
 * bounds, keeping their text. Other entries are never inflated. Each entry is returned as text (UTF-8).
 */
export function unpackBounded(zip: Uint8Array, wanted: ReadonlySet<string>, bounds: UnzipBounds = DEFAULT_UNZIP_BOUNDS): Map<string, string> {
  inflate(zip, wanted, bounds, false);
  return inflate(zip, wanted, bounds, true);
}

function inflate(zip: Uint8Array, wanted: ReadonlySet<string>, bounds: UnzipBounds, keep: boolean): Map<string, string> {
  const out = new Map<string, string>();
  let total = 0;
  let entries = 0;
  let refusal: AppError | undefined;
  const refuse = (err: AppError) => (refusal ??= err);

  const unzip = new Unzip((file: UnzipFile) => {
    entries++;
    if (!wanted.has(file.name) || refusal) return;
    if (out.has(file.name)) {
      refuse(new AppError('invalid_request', `the zip holds ${file.name} twice; not an account export`));
      return;
    }
    let size = 0;
    const decoder = new TextDecoder();
    const parts: string[] = [];
    out.set(file.name, '');
    file.ondata = (err, data, final) => {
      if (refusal) return;
      if (err) {
        refuse(new AppError('invalid_request', `not a zip file (${file.name}: ${err.message})`));
        return;
      }
      size += data.length;
      total += data.length;
      if (size > bounds.maxEntryBytes) {
        refuse(new AppError('invalid_request', `${file.name} unpacks to more than ${mib(bounds.maxEntryBytes)} (the most one entry may, --max-entry); refused as not an account export`));
      } else if (total > bounds.maxBytes) {
        refuse(new AppError('invalid_request', `the zip's records unpack to more than ${mib(bounds.maxBytes)} (--max-unpacked); refused as not an account export`));
      } else if (keep) {
        parts.push(decoder.decode(data, { stream: !final }));
        if (final) out.set(file.name, parts.join(''));
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < zip.length && !refusal; at += PIECE) unzip.push(zip.subarray(at, at + PIECE), at + PIECE >= zip.length);
    if (zip.length === 0) unzip.push(zip, true);
  } catch (err) {
    if (!refusal) throw new AppError('invalid_request', `not a zip file (${(err as Error).message})`);
  }
  if (refusal) throw refusal;
  if (entries === 0) throw new AppError('invalid_request', 'not a zip file (no entries found)');
  return out;
}

/** A size as given on the command line: bytes, or a number with K, M or G (KiB, MiB, GiB); undefined when it is none. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]) * 1024 ** ' kmg'.indexOf(m[2]!.toLowerCase() || ' ');
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : undefined;
}
