import { readPngSize } from './png';

/**
 * macOS .icns: 'icns' + total length, then (type, length, data) records. Every type below holds PNG
 * data (supported since macOS 10.7); the @2x types carry the Retina variants of the same point size.
 */
export const icnsPngTypes = {
  icp4: 16,
  icp5: 32,
  ic11: 32, // 16 pt @2x
  ic12: 64, // 32 pt @2x
  ic07: 128,
  ic13: 256, // 128 pt @2x
  ic08: 256,
  ic14: 512, // 256 pt @2x
  ic09: 512,
  ic10: 1024, // 512 pt @2x
} as const satisfies Record<string, number>;

export type IcnsType = keyof typeof icnsPngTypes;

export interface IcnsEntry {
  readonly type: string;
  readonly data: Buffer;
}

const recordHeaderBytes = 8;

export function encodeIcns(entries: readonly IcnsEntry[]): Buffer {
  const records = entries.map(({ type, data }) => {
    if (!/^[\x20-\x7e]{4}$/.test(type)) throw new Error(`bad ICNS type ${JSON.stringify(type)}`);
    const header = Buffer.alloc(recordHeaderBytes);
    header.write(type, 0, 'latin1');
    header.writeUInt32BE(recordHeaderBytes + data.length, 4);
    return Buffer.concat([header, data]);
  });
  const header = Buffer.alloc(recordHeaderBytes);
  header.write('icns', 0, 'latin1');
  header.writeUInt32BE(recordHeaderBytes + records.reduce((sum, record) => sum + record.length, 0), 4);
  return Buffer.concat([header, ...records]);
}

/** Reads an .icns back, checking the lengths add up and each known PNG type has its pixel size. */
export function parseIcns(icns: Buffer): IcnsEntry[] {
  if (icns.length < recordHeaderBytes || icns.toString('latin1', 0, 4) !== 'icns') throw new Error('not an ICNS file');
  if (icns.readUInt32BE(4) !== icns.length) throw new Error('ICNS length field does not match the file size');
  const entries: IcnsEntry[] = [];
  let offset = recordHeaderBytes;
  while (offset < icns.length) {
    if (offset + recordHeaderBytes > icns.length) throw new Error('truncated ICNS record header');
    const type = icns.toString('latin1', offset, offset + 4);
    const length = icns.readUInt32BE(offset + 4);
    if (length < recordHeaderBytes || offset + length > icns.length) throw new Error(`ICNS record ${type} overruns`);
    const data = icns.subarray(offset + recordHeaderBytes, offset + length);
    const expected = (icnsPngTypes as Record<string, number | undefined>)[type];
    if (expected !== undefined) {
      const size = readPngSize(data);
      if (size.width !== expected || size.height !== expected) {
        throw new Error(`ICNS ${type} should be ${expected} px, is ${size.width}x${size.height}`);
      }
    }
    entries.push({ type, data });
    offset += length;
  }
  return entries;
}
