import { constants, deflateRawSync } from 'node:zlib';

/**
 * Zips built by hand for the import's bounds (test/api/account-import-bounds.test.ts): `entries` named
 * DEFLATE streams, each declaring `declaredSize` as its unpacked size (a lie, as a hostile zip's would be).
 * No CRC (0): readers that check it fail only after inflating, which is what is measured.
 */
export function handZip(entries: { name: string; deflated: Uint8Array; declaredSize: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // DEFLATE
    local.writeUInt32LE(e.deflated.length, 18);
    local.writeUInt32LE(e.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.deflated.length, 20);
    central.writeUInt32LE(e.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(e.deflated));
    centrals.push(central, name);
    offset += local.length + name.length + e.deflated.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/**
 * A DEFLATE stream of `mib` MiB of zeros, built without ever holding them: one MiB deflated with a full
 * flush (byte-aligned, no reference to what came before) repeated, then a final empty block. ~1 KB per MiB.
 */
export function zerosDeflated(mib: number): Buffer {
  const piece = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_FULL_FLUSH });
  const last = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([...Array.from({ length: mib }, () => piece), last]);
}
