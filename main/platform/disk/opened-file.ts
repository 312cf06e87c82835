import * as fs from 'node:fs';
import type { ReadStream, Stats } from 'node:fs';
import { promisify } from 'node:util';

const read = promisify(fs.read);
const write = promisify(fs.write);
const fstat = promisify(fs.fstat);
const fdatasync = promisify(fs.fdatasync);
const fsync = promisify(fs.fsync);
const fchmod = promisify(fs.fchmod);
const close = promisify(fs.close);

/**
 * A file the sandbox opened and verified, as the few async operations tools need. The sandbox opens
 * files synchronously relative to a folder descriptor (there is no async openat in Node), so what it
 * hands out is a plain descriptor; this is the FileHandle-like face of it. Closing twice is harmless.
 */
export class OpenedFile {
  #closed = false;

  constructor(readonly fd: number) {}

  async read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    const { bytesRead } = await read(this.fd, buffer, offset, length, position);
    return { bytesRead };
  }

  async write(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position?: number,
  ): Promise<{ bytesWritten: number }> {
    const { bytesWritten } = await write(this.fd, buffer, offset, length, position ?? null);
    return { bytesWritten };
  }

  async writeAll(bytes: Uint8Array): Promise<void> {
    for (let written = 0; written < bytes.length;) {
      written += (await this.write(bytes, written, bytes.length - written)).bytesWritten;
    }
  }

  /**
   * Up to `size` bytes from the start (the whole file, or its head for sniffing); fewer when the file
   * is shorter or shrank since its size was taken.
   */
  async readAll(size: number): Promise<Buffer> {
    return this.readInto(Buffer.allocUnsafe(size), size);
  }

  /** The first `size` bytes of the file (fewer at its end), read into `bytes` from its start. */
  async readInto(bytes: Buffer, size: number): Promise<Buffer> {
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await this.read(bytes, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return bytes.subarray(0, filled);
  }

  stat(): Promise<Stats> {
    return fstat(this.fd);
  }

  datasync(): Promise<void> {
    return fdatasync(this.fd);
  }

  sync(): Promise<void> {
    return fsync(this.fd);
  }

  chmod(mode: number): Promise<void> {
    return fchmod(this.fd, mode);
  }

  /** A stream over [start, end] that leaves the descriptor open (close() stays with the owner). */
  createReadStream(options: { start: number; end: number }): ReadStream {
    return fs.createReadStream('', { fd: this.fd, start: options.start, end: options.end, autoClose: false });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await close(this.fd);
  }
}
