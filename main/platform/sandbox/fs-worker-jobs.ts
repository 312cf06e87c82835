import type * as NodeFs from 'node:fs';
import type { Text, TextTools } from './fs-worker-text';
import type { AnchoredFiles, FileMatches, SearchHit, SearchJob, SearchJobResult, StatRows } from './search-types';

/**
 * The work Familiar's file workers do: stat many entries, search many files. This function is
 * SELF-CONTAINED on purpose — it is shipped to worker threads as its own source text
 * (fs-worker-pool.ts), so it may use only its parameters and globals (Buffer, TextDecoder): no
 * imports, no module-level names (type imports are fine, they vanish). in-process-jobs.ts runs the
 * same code in the main thread.
 */
export interface FsJobs {
  statEntries(files: AnchoredFiles): StatRows;
  searchFiles(job: SearchJob): SearchJobResult;
}

/** `chunkSize` is for tests (tiny chunks exercise the segment seams); workers use the default. */
export function fsWorkerJobs(fs: typeof NodeFs, tools: TextTools, options: { chunkSize?: number }): FsJobs {
  const chunkSize = options.chunkSize ?? 4 << 20;
  const maxLineBytes = Math.max(chunkSize, 64 << 20);
  const sniff = 8192;
  const { O_RDONLY, O_NONBLOCK = 0, O_NOFOLLOW = 0, O_DIRECTORY = 0 } = fs.constants;
  // O_PATH is not in Node's constants; the same value on every Linux architecture.
  const O_PATH = 0o10000000;
  const openFlags = O_RDONLY | O_NONBLOCK | O_NOFOLLOW;
  // Files read but not yet confirmed (their descriptors open) per folder: one folder lock for these.
  const confirmBatch = 64;
  let buffer: Buffer | undefined; // allocated on the first search

  /**
   * Opens the job's files the sandbox's way (anchored-fs.ts): folders one component at a time from
   * the root the main thread holds, never through a symlink, each checked to be the folder the walk
   * listed (dev, ino); files with O_NOFOLLOW, regular only. A folder swapped since the walk is
   * skipped with all its files. The chain of open folders is kept between files of nearby folders.
   */
  function anchoredOpener(files: AnchoredFiles) {
    const proc = files.mode === 'proc-fd';
    const { root } = files;
    const chain: { name: string; fd: number }[] = [];
    let rootOk: boolean;
    try {
      const s = proc ? fs.fstatSync(root.fd) : fs.lstatSync(root.path);
      rootOk = s.isDirectory() && s.dev === root.dev && s.ino === root.ino;
    } catch {
      rootOk = false;
    }
    let current = -1;
    let currentOk = false;
    let prefix = '';
    let dirPath = '';
    const dirStillThere = (index: number) => {
      if (proc) return true;
      const spec = files.dirs[index]!;
      const s = fs.lstatSync(dirPath, { throwIfNoEntry: false });
      return s !== undefined && s.isDirectory() && s.dev === spec.dev && s.ino === spec.ino;
    };
    const enter = (index: number): boolean => {
      if (index === current) return currentOk;
      confirmPending(); // their folder's descriptor is about to be closed
      current = index;
      currentOk = false;
      if (!rootOk) return false;
      const spec = files.dirs[index]!;
      const parts = spec.rel === '' ? [] : spec.rel.split('/');
      if (!proc) {
        dirPath = parts.length === 0 ? root.path : `${root.path}/${parts.join('/')}`;
        prefix = `${dirPath}/`;
        currentOk = dirStillThere(index);
        return currentOk;
      }
      let common = 0;
      while (common < chain.length && common < parts.length && chain[common]!.name === parts[common]) common += 1;
      while (chain.length > common) fs.closeSync(chain.pop()!.fd);
      try {
        for (let i = common; i < parts.length; i += 1) {
          const parent = i === 0 ? root.fd : chain[i - 1]!.fd;
          const fd = fs.openSync(`/proc/self/fd/${parent}/${parts[i]}`, O_PATH | O_DIRECTORY | O_NOFOLLOW);
          chain.push({ name: parts[i]!, fd });
        }
      } catch {
        return false; // swapped for a link, or gone: none of its files is read
      }
      const dirFd = parts.length === 0 ? root.fd : chain[parts.length - 1]!.fd;
      const s = fs.fstatSync(dirFd);
      if (s.dev !== spec.dev || s.ino !== spec.ino) return false;
      prefix = `/proc/self/fd/${dirFd}/`;
      currentOk = true;
      return true;
    };
    /**
     * A file opened with one link is read, but what was read is kept only once that link is
     * confirmed to be the name we opened (anchored-fs.ts stillNamed): a hard link to an outside file
     * unlinked from the workspace between our open and our fstat shows one link too, the outside
     * one. On Linux the kernel marks a descriptor's name ' (deleted)' once its entry is unlinked, but
     * only after dropping the count, both under the folder's lock; so the folder's lock is taken
     * (a read of its entries) AFTER the fstat and before the names are read: once per folder for up
     * to `confirmBatch` files, the descriptors held open meanwhile. Elsewhere the name must still be
     * this file with one link (a window remains, SECURITY.md).
     */
    const confirming = files.hardLinks === 'refuse';
    const pending: { fd: number; name: string; keep: () => void }[] = [];
    const closeAll = (entries: { fd: number }[]) => {
      for (const entry of entries) fs.closeSync(entry.fd);
    };
    const confirmPending = () => {
      if (pending.length === 0) return;
      const batch = pending.splice(0);
      let settled = false;
      try {
        const dir = fs.opendirSync(prefix.slice(0, -1));
        try {
          dir.readSync();
        } finally {
          dir.closeSync();
        }
        settled = true;
      } catch {
        // The folder is gone or unreadable: nothing of it is confirmed.
      }
      for (const { fd, name, keep } of batch) {
        const named = settled && nameOf(fd).endsWith(`/${name}`);
        fs.closeSync(fd);
        if (named) keep();
      }
    };
    // What the kernel calls the descriptor ('' when it cannot say).
    const nameOf = (fd: number): string => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    };
    const soleNameHere = (fd: number, path: string): boolean => {
      try {
        const now = fs.lstatSync(path, { throwIfNoEntry: false });
        const s = fs.fstatSync(fd);
        return now !== undefined && now.isFile() && now.nlink <= 1 && now.dev === s.dev && now.ino === s.ino;
      } catch {
        return false;
      }
    };
    return {
      /** A descriptor on the regular file, or undefined when it is not (any more) one the sandbox would read. */
      open(i: number): number | undefined {
        const dirIndex = files.dirOf[i]!;
        if (!enter(dirIndex)) return undefined;
        const path = prefix + files.names[i]!;
        const before = proc ? undefined : fs.lstatSync(path, { throwIfNoEntry: false });
        if (!proc && before?.isFile() !== true) return undefined;
        let fd: number;
        try {
          fd = fs.openSync(path, openFlags);
        } catch {
          return undefined; // vanished, or became a symlink / unreadable since the walk: skip like rg does
        }
        const s = fs.fstatSync(fd);
        const refused =
          !s.isFile() ||
          (files.hardLinks === 'refuse' && s.nlink > 1) ||
          (before !== undefined && (before.dev !== s.dev || before.ino !== s.ino)) ||
          !dirStillThere(dirIndex);
        if (refused) {
          fs.closeSync(fd);
          return undefined;
        }
        return fd;
      },
      /**
       * Done reading `fd` (from open(i)): `keep` runs once the file is confirmed to be one the
       * sandbox would read (now, or at a later settle/finish); the descriptor is closed either way.
       */
      settle(i: number, fd: number, keep: () => void): void {
        if (!confirming) {
          fs.closeSync(fd);
          keep();
        } else if (proc) {
          pending.push({ fd, name: files.names[i]!, keep });
          if (pending.length >= confirmBatch) confirmPending();
        } else {
          const sole = soleNameHere(fd, prefix + files.names[i]!);
          fs.closeSync(fd);
          if (sole) keep();
        }
      },
      /** Confirms what is still pending (the end of a job). */
      finish(): void {
        confirmPending();
      },
      lstat(i: number): NodeFs.Stats | undefined {
        const dirIndex = files.dirOf[i]!;
        if (!enter(dirIndex)) return undefined;
        const s = fs.lstatSync(prefix + files.names[i]!, { throwIfNoEntry: false });
        return dirStillThere(dirIndex) ? s : undefined;
      },
      /** Releases everything; what was not confirmed by finish() is dropped. */
      close() {
        closeAll(pending.splice(0));
        while (chain.length > 0) fs.closeSync(chain.pop()!.fd);
      },
    };
  }

  function statEntries(files: AnchoredFiles): StatRows {
    const rows = new Float64Array(files.names.length * 2);
    const opener = anchoredOpener(files);
    try {
      for (let i = 0; i < files.names.length; i += 1) {
        const s = opener.lstat(i);
        rows[i * 2] = s === undefined ? -1 : s.isFile() ? 0 : s.isDirectory() ? 1 : s.isSymbolicLink() ? 2 : 3;
        rows[i * 2 + 1] = s === undefined ? 0 : s.size;
      }
    } finally {
      opener.close();
    }
    return rows;
  }

  const { indexOfNl, lastIndexOfNl, countNewlines, foldedSearcher } = tools;

  interface FileState {
    readonly fd: number;
    readonly hits: SearchHit[];
    count: number;
    countedOffset: number; // file offset up to which newlines are counted
    countedLine: number; // line number at countedOffset
    tail: string[]; // last lines of the previous segment (before-context)
    waiting: SearchHit[]; // hits still missing after-context lines
  }

  // Jobs of one search share their compiled matchers (the shift table alone is 256 KB).
  let cached: { key: string; find: (hay: Buffer, from: number) => number } | undefined;
  const searcherFor = (needle: string) => {
    if (cached?.key !== needle) cached = { key: needle, find: foldedSearcher(needle) };
    return cached.find;
  };

  function searchFiles(job: SearchJob): SearchJobResult {
    const { spec } = job;
    const base = (buffer ??= Buffer.allocUnsafe(chunkSize));
    const literal = spec.mode === 'bytes' || spec.mode === 'nocase';
    const needle = spec.mode === 'bytes' ? Buffer.from(spec.pattern, 'latin1') : undefined;
    const foldedFind = spec.mode === 'nocase' ? searcherFor(spec.pattern) : undefined;
    const regex = literal ? undefined : new RegExp(spec.pattern, `${spec.flags}g`);
    const prefilter = spec.prefilter;
    const candidates =
      prefilter === undefined
        ? undefined
        : prefilter.nocase
          ? searcherFor(prefilter.needle)
          : (
              (needleBytes: Buffer) => (hay: Buffer, from: number) =>
                hay.indexOf(needleBytes, from)
            )(Buffer.from(prefilter.needle, 'latin1'));
    const lineRegex = prefilter === undefined ? undefined : new RegExp(spec.pattern, spec.flags);
    // UTF-16 files are decoded whole and searched as text: the literal needs a text form too.
    const textRegex =
      regex ??
      new RegExp(
        Buffer.from(spec.pattern, 'latin1')
          .toString('utf8')
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        `${spec.flags}${spec.mode === 'nocase' ? 'i' : ''}g`,
      );
    const files: FileMatches[] = [];
    const counts: number[] = [];
    let bytes = 0;
    let binary = 0;

    const findIn = (text: Text, from: number, decoded: boolean): number => {
      if (!decoded && candidates !== undefined) {
        // Candidate lines by the literal; the regex decides on the decoded line.
        const bytes = text as Buffer;
        for (let pos = from; ;) {
          const at = candidates(bytes, pos);
          if (at === -1) return -1;
          const start = lastIndexOfNl(bytes, at - 1) + 1;
          let end = bytes.indexOf(10, at);
          if (end === -1) end = bytes.length;
          const line = bytes.toString('utf8', start, end);
          const match = lineRegex!.exec(line);
          if (match !== null) return start + Buffer.byteLength(line.slice(0, match.index));
          pos = end + 1;
        }
      }
      if (!decoded && needle !== undefined) return (text as Buffer).indexOf(needle, from);
      if (!decoded && foldedFind !== undefined) return foldedFind(text as Buffer, from);
      const re = decoded && spec.mode !== 'utf8' ? textRegex : regex!;
      re.lastIndex = from;
      const match = re.exec(text as string);
      return match === null ? -1 : match.index;
    };

    /**
     * One segment of a file: whole lines, `seg` its bytes and `text` what the matcher runs on (the
     * bytes themselves, their latin1 string, or decoded text when `decoded`).
     */
    function scanSegment(
      state: FileState,
      seg: Buffer,
      text: Text,
      decoded: boolean,
      fileOffset: number,
      atEnd: boolean,
    ) {
      const length = text.length;
      const slice = (a: number, b: number) => (decoded ? (text as string).slice(a, b) : seg.toString('utf8', a, b));
      const lineAt = (start: number, end: number, focus: number) => {
        let line = slice(start, end);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (start === 0 && fileOffset === 0 && line.startsWith('\uFEFF')) line = line.slice(1);
        const column = [...slice(start, focus)].length + 1;
        if (line.length <= spec.maxLineChars) return { text: line, column };
        const from = Math.max(0, Math.min(column - 1 - 80, line.length - spec.maxLineChars));
        return { text: `${from > 0 ? '…' : ''}${line.slice(from, from + spec.maxLineChars)}…`, column };
      };
      const plain = (start: number, end: number) => lineAt(start, end, start).text;

      if (state.waiting.length > 0) {
        let at = 0;
        for (let taken = 0; taken < spec.contextLines && at < length; taken += 1) {
          const end = indexOfNl(text, at);
          const stop = end === -1 ? length : end;
          const line = plain(at, stop);
          for (const hit of state.waiting) if (hit.after.length < spec.contextLines) hit.after.push(line);
          at = stop + 1;
        }
        state.waiting = [];
      }

      let segCounted = 0; // offset in `text` up to which newlines are counted
      let segLine = -1; // line number at segCounted, once known
      for (let pos = 0; pos < length;) {
        const at = findIn(text, pos, decoded);
        if (at === -1) break;
        const start = lastIndexOfNl(text, at - 1) + 1;
        let end = indexOfNl(text, at);
        if (end === -1) end = length;
        state.count += 1;
        if (state.hits.length < job.maxDetails) {
          if (segLine === -1) {
            if (state.countedOffset < fileOffset) {
              state.countedLine += countFileNewlines(state.fd, state.countedOffset, fileOffset);
              state.countedOffset = fileOffset;
            }
            segLine = state.countedLine;
          }
          segLine += countNewlines(text, segCounted, start);
          segCounted = start;
          const { text: shown, column } = lineAt(start, end, at);
          const before: string[] = [];
          for (let k = 0, to = start - 1; k < spec.contextLines; k += 1) {
            if (to < 0) {
              before.unshift(...state.tail.slice(Math.max(0, state.tail.length - (spec.contextLines - k))));
              break;
            }
            const from = lastIndexOfNl(text, to - 1) + 1;
            before.unshift(plain(from, to));
            to = from - 1;
          }
          const after: string[] = [];
          for (let k = 0, from = end + 1; k < spec.contextLines && from < length; k += 1) {
            const stop = indexOfNl(text, from);
            const to = stop === -1 ? length : stop;
            after.push(plain(from, to));
            from = to + 1;
          }
          const hit: SearchHit = { line: segLine, column, text: shown, before, after };
          state.hits.push(hit);
          if (after.length < spec.contextLines && !atEnd) state.waiting.push(hit);
        }
        pos = end + 1;
      }
      if (segLine !== -1) {
        // Lines are counted through this segment lazily: only when a later hit needs them.
        state.countedLine = segLine + countNewlines(text, segCounted, length);
        state.countedOffset = fileOffset + seg.length;
      }
      if (spec.contextLines > 0 && !atEnd) {
        state.tail = [];
        for (let to = length - 1, k = 0; k < spec.contextLines && to >= 0; k += 1) {
          const from = lastIndexOfNl(text, to - 1) + 1;
          state.tail.unshift(plain(from, to));
          to = from - 1;
        }
      }
    }

    const opener = anchoredOpener(job.files);
    try {
      for (let index = 0; index < job.files.names.length; index += 1) {
        const fd = opener.open(index);
        if (fd === undefined) continue;
        const state: FileState = { fd, hits: [], count: 0, countedOffset: 0, countedLine: 1, tail: [], waiting: [] };
        let isBinary = false;
        let chunk = base;
        try {
          let fileOffset = 0; // file offset of the segment start
          let carry = 0; // bytes of an unfinished line kept at the chunk's start
          for (;;) {
            let read = 0;
            try {
              read = fs.readSync(fd, chunk, carry, chunk.length - carry, fileOffset + carry);
            } catch {
              break; // EAGAIN on a FIFO swapped in, EISDIR...: nothing to search
            }
            bytes += read;
            const filled = carry + read;
            // A short read of a regular file is its end (saves a second read per small file).
            const atEnd = filled < chunk.length;
            if (fileOffset === 0) {
              const utf16 = utf16Encoding(chunk, filled);
              if (utf16 !== undefined) {
                const text = readUtf16(fd, utf16, chunk.subarray(0, filled), atEnd);
                if (text !== undefined) scanSegment(state, chunk.subarray(0, 0), text, true, 0, true);
                else isBinary = true;
                break;
              }
              if (chunk.subarray(0, Math.min(filled, sniff)).includes(0)) {
                isBinary = true;
                break;
              }
            }
            // Cut at the last newline so no line straddles two segments. A line longer than the chunk
            // grows the chunk (minified files), up to maxLineBytes; beyond that it is cut.
            let cut = filled;
            if (!atEnd) {
              const last = chunk.lastIndexOf(10, filled - 1);
              if (last === -1 && chunk.length < maxLineBytes) {
                const grown = Buffer.allocUnsafe(chunk.length * 2);
                chunk.copy(grown, 0, 0, filled);
                chunk = grown;
                carry = filled;
                continue;
              }
              cut = last === -1 ? filled : last + 1;
            }
            const seg = chunk.subarray(0, cut);
            const decoded = spec.mode === 'utf8' && candidates === undefined;
            const text: Text = literal || candidates !== undefined ? seg : seg.toString(decoded ? 'utf8' : 'latin1');
            scanSegment(state, seg, text, decoded, fileOffset, atEnd);
            if (atEnd) break;
            chunk.copyWithin(0, cut, filled);
            carry = filled - cut;
            fileOffset += cut;
          }
        } catch (error) {
          fs.closeSync(fd);
          throw error;
        }
        opener.settle(index, fd, () => {
          if (isBinary) binary += 1;
          else if (state.count > 0) {
            counts.push(index, state.count);
            if (state.hits.length > 0) files.push({ index, count: state.count, hits: state.hits });
          }
        });
      }
      opener.finish(); // confirmations run in the order files were read: results stay in job order
    } finally {
      opener.close();
    }
    return { files, counts: Int32Array.from(counts), bytes, binary };
  }

  function utf16Encoding(bytes: Buffer, filled: number): 'utf-16le' | 'utf-16be' | undefined {
    if (filled < 2) return undefined;
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
    return undefined;
  }

  // UTF-16 text (rare in code) is decoded whole; above 64 MB it is skipped like a binary file.
  function readUtf16(fd: number, encoding: string, head: Buffer, atEnd: boolean): string | undefined {
    let bytes = head;
    if (!atEnd) {
      const size = fs.fstatSync(fd).size;
      if (size > 64 << 20) return undefined;
      bytes = Buffer.allocUnsafe(size);
      bytes = bytes.subarray(0, fs.readSync(fd, bytes, 0, size, 0));
    }
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }

  // Newlines in [from, to) of a file, read again with a small buffer: only big files with a match
  // far from their start pay for this, files without matches never do.
  function countFileNewlines(fd: number, from: number, to: number): number {
    const scratch = Buffer.allocUnsafe(1 << 20);
    let count = 0;
    for (let at = from; at < to;) {
      const read = fs.readSync(fd, scratch, 0, Math.min(scratch.length, to - at), at);
      if (read === 0) break;
      for (let i = scratch.indexOf(10, 0); i !== -1 && i < read; i = scratch.indexOf(10, i + 1)) count += 1;
      at += read;
    }
    return count;
  }

  return { statEntries, searchFiles };
}
