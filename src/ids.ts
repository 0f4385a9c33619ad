import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * ulid's default source asks the OS for one byte per character (16 calls per id); a pool filled
 * 4 KiB at a time gives the same cryptographic bytes at a fraction of the cost (ids are made on
 * every write, several per webhook delivery). byte / 256 is uniform over ulid's 32 characters.
 */
const pool = new Uint8Array(4096);
let next = pool.length;
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

export type IdPrefix = 'usr' | 'sht' | 'ses' | 'sol' | 'snp' | 'spk' | 'td' | 'wl' | 'key' | 'wh' | 'dlv' | 'exp' | 'evt' | 'run' | 'cs' | 'grt' | 'wsp' | 'inv' | 'shr' | 'ksg' | 'drn';

/** Opaque, prefixed, time-sortable ids (decisions.md): `sht_01J...`. */
export function newId(prefix: IdPrefix, at: number = Date.now()): string {
  return `${prefix}_${nextUlid(at).toLowerCase()}`;
}
