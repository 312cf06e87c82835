import { startOutputProcess } from '../processes/output-process';
import { ripgrepExit } from './ripgrep-exit';
import type { ConfinementRules } from '../processes/launch-types';
import { SNIFF_BYTES } from './search-file-reads';
import { prefixedLines } from './prefixed-lines';
import type { AnchoredFiles } from '../disk/anchored-batch';

/**
 * One batch of a search run by ripgrep: the files the walk listed (so the ignore rules, hidden
 * names, the deny-list and concealment are the walk's own, never ripgrep's), named on its command
 * line, and what ripgrep says of each. Only counts come back from here: the lines a result shows are
 * read again through the sandbox by the JS engine (search-in-code.ts), so no byte ripgrep read is
 * ever shown, and a file swapped for a symlink while ripgrep ran is never described.
 */
export interface RipgrepCounts {
  /** [index, matching lines] per file with a match that is not binary, in any order. */
  readonly counts: Int32Array;
  /** Bytes ripgrep read of each file in `counts` (same order): what describing it will cost. */
  readonly sizes?: Float64Array;
  /**
   * The indices of the files with a match that count as binary (a NUL byte in the first 8 KB, as
   * the JS engine judges), in any order.
   */
  readonly binaryFiles: Int32Array;
  /**
   * The indices of the files with a NUL byte past the first 8 KB: text to the JS engine, but ripgrep
   * read each NUL as a line's end (its count can be off), so they are counted again.
   */
  readonly recount: Int32Array;
  readonly bytes: number;
}

/** Arguments that make ripgrep's answer depend on nothing but the pattern and the files named. */
const fixedArgs = [
  '--no-config', // no RIPGREP_CONFIG_PATH file can add flags
  '--json',
  '--no-messages',
  '--no-ignore', // the files are chosen already: no ignore file may drop one
  '--hidden',
  '--no-follow',
  '--no-ignore-messages',
];

/**
 * `confinement` (process-rules.ts, 'ripgrep': the workspace read-only, nothing writable, no
 * network): what ripgrep opens by a name that changed since the walk (a link to the home) is then
 * not there for it, and the batch goes to the JS engine.
 */
export async function ripgrepCounts(
  rg: string,
  patternArgs: readonly string[],
  files: AnchoredFiles,
  signal: AbortSignal,
  confinement?: Omit<ConfinementRules, 'cwd'>,
): Promise<RipgrepCounts | undefined> {
  // The root is the descriptor this process holds, inherited as 3 (as git gets it, git-runner.ts),
  // and ripgrep's working folder is that descriptor's folder (the child changes into
  // /proc/self/fd/3 once, before it runs ripgrep): a root renamed or swapped meanwhile does not
  // move the search, and the paths stay short and relative (no /proc lookup per file: measured
  // ~0.25 s of CPU less on 30k files).
  const proc = files.mode === 'proc-fd';
  const indexOf = new Map<string, number>();
  const paths = files.names.map((name, index) => {
    const rel = files.dirs[files.dirOf[index]!]!.rel;
    const path = rel === '' ? name : `${rel}/${name}`;
    indexOf.set(path, index);
    return path;
  });
  const child = startOutputProcess({
    file: rg,
    args: [...fixedArgs, ...patternArgs, '--', ...paths],
    cwd: proc ? '/proc/self/fd/3' : files.root.path,
    // The allow-list environment of every child (child-environment.ts): no RIPGREP_CONFIG_PATH.
    environment: { pass: [] },
    inheritFds: proc ? [files.root.fd] : [],
    signal,
    ...(confinement === undefined ? {} : { confinement }),
  });
  const counts: number[] = [];
  const sizes: number[] = [];
  const binaryFiles: number[] = [];
  const recount: number[] = [];
  let bytes = 0;
  // Only 'end' messages are parsed (one per file with a match): match lines are passed over as bytes.
  const onEnd = (line: string) => {
    const data = (JSON.parse(line) as { data: EndData }).data;
    const path = data.path.text ?? Buffer.from(data.path.bytes ?? '', 'base64').toString('utf8');
    const index = indexOf.get(path);
    bytes += data.stats.bytes_searched;
    if (index === undefined || data.stats.matched_lines === 0) return;
    if (data.binary_offset === null) {
      counts.push(index, data.stats.matched_lines);
      sizes.push(data.stats.bytes_searched);
    } else if (data.binary_offset < SNIFF_BYTES) binaryFiles.push(index);
    else recount.push(index);
  };
  child.stdout.on('data', prefixedLines(Buffer.from('{"type":"end"'), onEnd));
  // A start that fails (ripgrep removed since it was found) leaves the batch to the JS engine.
  const { exitCode, stderr } = await ripgrepExit(child, signal);
  // 0: matches, 1: none, 2: an error (a file gone since the walk, a pattern rg refused): the JS
  // engine then searches this batch instead, so the answer stays exact. bwrap that cannot set the
  // sandbox up also exits 1, and says why (rg with --no-messages says nothing): not "no match".
  if (exitCode !== 0 && exitCode !== 1) return undefined;
  if (exitCode === 1 && child.confined && stderr !== '') return undefined;
  return {
    counts: Int32Array.from(counts),
    sizes: Float64Array.from(sizes),
    binaryFiles: Int32Array.from(binaryFiles),
    recount: Int32Array.from(recount),
    bytes,
  };
}

interface EndData {
  readonly path: { readonly text?: string; readonly bytes?: string };
  readonly binary_offset: number | null;
  readonly stats: { readonly bytes_searched: number; readonly matched_lines: number };
}
