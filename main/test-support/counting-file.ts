import { openSync } from 'node:fs';
import { OpenedFile } from '../platform/disk/opened-file';

/** An opened file that counts the bytes asked of it: the measure of "reads near the lines, not the file". */
export class CountingFile extends OpenedFile {
  bytesRead = 0;
  override async read(buffer: Uint8Array, offset: number, length: number, position: number) {
    const result = await super.read(buffer, offset, length, position);
    this.bytesRead += result.bytesRead;
    return result;
  }
}

/** Opens `path` for reading as a {@link CountingFile}. */
export function openCounting(path: string): CountingFile {
  return new CountingFile(openSync(path, 'r'));
}
