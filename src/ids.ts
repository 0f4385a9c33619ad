import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

export type IdPrefix = 'usr' | 'sht' | 'ses' | 'sol' | 'snp' | 'spk' | 'td' | 'wl' | 'key' | 'wh' | 'dlv' | 'exp' | 'evt' | 'run' | 'cs';

/** Opaque, prefixed, time-sortable ids (decisions.md): `sht_01J...`. */
export function newId(prefix: IdPrefix, at: number = Date.now()): string {
  return `${prefix}_${nextUlid(at).toLowerCase()}`;
}
