import * as fs from 'node:fs';
import { prestartOutputFileProcess, readOutputFile, startOutputFileProcess } from '../processes/output-process';
import type { FileOutputProcess, OutputProcessSpec } from '../processes/output-process';
import { discardPrestarted } from '../processes/prestarted-launch';
import type { ForegroundGate } from './foreground-gate';
import { ripgrepExit } from './ripgrep-exit';
import { confinementMode, probeConfinementSoon } from '../processes/confinement';
import type { ConfinementRules } from '../processes/launch-types';

/**
 * ripgrep walking the folders itself (issue 28 item 4), where the file-list mode
 * (ripgrep-search.ts) names every file the sandbox's walk chose on its command line. Allowed only
 * inside a confinement that shows ripgrep nothing but the workspace (read-only), the system
 * folders and the toolchains: the user's home and Familiar's home are empty folders there, memory
 * files are empty while memory is off, and no link is followed. What it cannot see it cannot read.
 *
 * It only proposes candidates: the paths of files with a match, as ripgrep's own walk found them,
 * and how many lines matched in each. The caller confirms each through the sandbox (its name
 * resolved again, hidden names, .gitignore, the deny-list, concealment, the persona overlay) and
 * the JS engine reads again the ones it shows, so a hard link, a deny-listed file or a shadowed
 * persona file ripgrep read is never shown; a count stands only for a file that is still what
 * ripgrep read (search-ripgrep-engine.ts). Undefined whenever the answer could be incomplete or
 * unconfined: the caller then walks and hands ripgrep a file list as before.
 */
export interface RipgrepWalkAnswer {
  /** Paths relative to the root (UTF-8, '/'-separated) of the files in which the pattern matched, in no order. */
  readonly matched: readonly string[];
  /** The matching lines ripgrep counted in each file of `matched` (same order), the file read as text. */
  readonly lines: readonly number[];
  /** Date.now() just before ripgrep started: what it read was there then or later. */
  readonly startedAt: number;
  /** Files ripgrep searched. */
  readonly searched: number;
  /**
   * Paths relative to the root of the folders ripgrep could not list and the files it could not
   * read (refused to it inside its confinement, gone meanwhile): what it did not search there is
   * the caller's to walk and read itself.
   */
  readonly unsearched: readonly string[];
}

export interface RipgrepWalkRoot {
  /** The root held open by this process (mounted inside the sandbox at its real path). */
  readonly fd: number;
  /** 'proc-fd': the root is named through its descriptor; else by its checked path. */
  readonly mode: 'proc-fd' | 'checked-path';
  readonly path: string;
}

export interface RipgrepWalkOptions {
  /** The folder to search, relative to the root ('' = the root itself). */
  readonly start: string;
  /** Git-ignored files and node_modules too (hidden names stay out either way). */
  readonly includeIgnored: boolean;
  /** Globs ripgrep leaves out (`!`-prefixed by this function): shadowed persona names, secrets. */
  readonly exclude: readonly string[];
  /** process-rules.ts, 'ripgrep'. Required: without a confinement there is no walk mode. */
  readonly confinement: Omit<ConfinementRules, 'cwd'>;
  /** The tool calls' gate: the next search's sandbox is made ahead only while no call runs. */
  readonly calls?: CallsGate;
  /** Told how many files with a match ripgrep named so far, as its output arrives (progress). */
  readonly onMatched?: (count: number) => void;
}

/**
 * ripgrep's walk as the sandbox's walk does it: the project's .gitignore files and
 * .git/info/exclude (with or without a repository), nothing of the user's (global excludes, a
 * parent folder's rules, .ignore/.rgignore), hidden names skipped, links never followed.
 */
const walkArgs = [
  '--no-config',
  // Its messages are read (walkErrors): they name what it could not list or read. Not those on
  // ignore files it cannot parse: a rule it drops only makes it search more.
  '--no-ignore-messages',
  '--no-follow',
  '--no-ignore-global',
  '--no-ignore-parent',
  '--no-ignore-dot',
  '--no-require-git',
  // Binary files searched as text: a match makes a candidate, its count is the JS engine's, and
  // whether it is binary is judged as the JS engine does (--binary would read a NUL as a line end
  // and miss matches on it).
  '--text',
  // The names of the files with a match, each NUL-terminated and followed by its count of matching
  // lines (a count saves reading them all again with a second ripgrep; it reads a matching file to
  // its end, where --files-with-matches stopped at its first match: 0-40 ms more, measured); then
  // the statistics, which count every file searched (the JSON summary counts only those with a match).
  '--count',
  '--null',
  '--stats',
];

/** Can ripgrep walk here (Linux, inside the bubblewrap confinement)? Else only the file-list mode. */
export const ripgrepCanWalk = (): boolean => process.platform === 'linux' && confinementMode().confined;

export async function ripgrepWalk(
  rg: string,
  patternArgs: readonly string[],
  root: RipgrepWalkRoot,
  options: RipgrepWalkOptions,
  signal: AbortSignal,
): Promise<RipgrepWalkAnswer | undefined> {
  // Checked here, where the walk is started: a walk with the user's rights could read their home.
  if (!ripgrepCanWalk()) return undefined;
  const ignores = options.includeIgnored
    ? ['--no-ignore']
    : // The sandbox's walk skips node_modules whatever .gitignore says (the start may be inside one).
      options.start.split('/').includes('node_modules')
      ? []
      : ['--glob', '!node_modules'];
  const excluded = options.exclude.flatMap((glob) => ['--glob', `!${glob}`]);
  const spec: OutputProcessSpec = {
    ...walkStart(rg, root, options.confinement),
    args: [...walkArgs, ...ignores, ...excluded, ...patternArgs, '--', options.start === '' ? '.' : options.start],
    signal,
  };
  let started: { child: FileOutputProcess; output: number };
  const startedAt = Date.now();
  try {
    started = startOutputFileProcess(spec);
  } catch {
    return undefined; // no temp folder to write in, no process to start: the file-list mode
  }
  const asOf = generation;
  walking += 1;
  try {
    return await walkInto(started, startedAt, spec, options);
  } finally {
    walking -= 1;
    fs.closeSync(started.output);
    // The next search's ripgrep starts in a sandbox made meanwhile, once this one has answered;
    // none once dropped (the workspace closed meanwhile, the app ending).
    if (asOf === generation) {
      clearTimeout(nextSandbox);
      const calls = options.calls;
      nextSandbox = setTimeout(
        () =>
          void prestartRipgrepWalk(rg, root, options.confinement, { asOf, ...(calls === undefined ? {} : { calls }) }),
        PRESTART_AFTER_MS,
      ).unref();
    }
  }
}

/** What every start of ripgrep's walk in `root` shares but its arguments: its sandbox, folder and environment. */
function walkStart(rg: string, root: RipgrepWalkRoot, confinement: RipgrepWalkOptions['confinement']) {
  const proc = root.mode === 'proc-fd';
  return {
    file: rg,
    cwd: proc ? '/proc/self/fd/3' : root.path,
    environment: { pass: [] },
    inheritFds: proc ? [root.fd] : [],
    confinement,
  };
}

/**
 * How long after a walk's ripgrep ends the sandbox for the next one is made (prestarted-launch.ts):
 * after the search has confirmed and described what it found, not on the cores it uses for that.
 */
const PRESTART_AFTER_MS = 400;
let nextSandbox: NodeJS.Timeout | undefined;
/** Walks whose ripgrep runs now. */
let walking = 0;
/** Counts drops: a sandbox asked for before one is not made after it. */
let generation = 0;

/** The tool calls' gate (foreground-gate.ts), as far as making a sandbox ahead needs it. */
export type CallsGate = Pick<ForegroundGate, 'busy' | 'idle'>;

/** Now, for prestartRipgrepWalk's `asOf`: taken before the work that leads to it. */
export const prestartGeneration = (): number => generation;

/** No sandbox made ahead for ripgrep any more, none waiting, none asked for before: the workspace closes, or the app ends. */
export function dropRipgrepPrestart(): void {
  generation += 1;
  clearTimeout(nextSandbox);
  discardPrestarted();
}

/**
 * Makes ahead the sandbox ripgrep's walk in `root` starts in (prestarted-launch.ts): after each
 * walk, and when asked (an MCP client's handshake done). Once no call runs (`calls`), and nothing
 * where ripgrep cannot walk, or when dropped since `asOf` (prestartGeneration). Never fails: a
 * root closed meanwhile (its folder gone, the workspace switched) makes nothing.
 */
export async function prestartRipgrepWalk(
  rg: string,
  root: RipgrepWalkRoot,
  confinement: RipgrepWalkOptions['confinement'],
  { calls, asOf = generation }: { readonly calls?: CallsGate; readonly asOf?: number } = {},
): Promise<void> {
  try {
    await calls?.idle();
    // Never the probe's synchronous run (bubblewrap starting `true`): as the app starts, that would
    // hold up its answer to a client's initialize. The background probe settles first.
    await probeConfinementSoon();
    // Not while a walk's ripgrep runs (it takes both cores, and bubblewrap's setup would slow it:
    // that walk makes the next sandbox itself once it is done), nor while a call runs.
    if (asOf !== generation || walking > 0 || calls?.busy === true || !ripgrepCanWalk()) return;
    prestartOutputFileProcess(walkStart(rg, root, confinement));
  } catch {
    // Nothing made: the next walk starts its ripgrep afresh.
  }
}

/** ripgrepWalk's run, its output written into the file `output`. */
async function walkInto(
  { child, output }: { child: FileOutputProcess; output: number },
  startedAt: number,
  spec: OutputProcessSpec,
  options: RipgrepWalkOptions,
): Promise<RipgrepWalkAnswer | undefined> {
  if (!child.confined) {
    child.kill('SIGKILL');
    return undefined;
  }
  // Progress while it walks: the names written so far, each ending with a NUL (a name never holds
  // one), then how many in all.
  let named = 0;
  let seen = 0;
  const onMatched = options.onMatched;
  const progress =
    onMatched === undefined
      ? undefined
      : setInterval(() => {
          const fresh = readOutputFile(output, seen);
          seen += fresh.length;
          const before = named;
          for (let at = fresh.indexOf(0); at !== -1; at = fresh.indexOf(0, at + 1)) named += 1;
          if (named > before) onMatched(named);
        }, PROGRESS_EVERY_MS);
  let ended: Awaited<ReturnType<typeof ripgrepExit>>;
  try {
    ended = await ripgrepExit(child, spec.signal, maxMessages);
  } finally {
    clearInterval(progress);
  }
  const { exitCode, stderr } = ended;
  // bwrap that cannot set the sandbox up exits 1 and says why on stderr: not "no match".
  if ((exitCode === 0 || exitCode === 1) && stderr !== '') return undefined;
  // 2: an error on some folder or file (refused to it, gone meanwhile): each is named on stderr,
  // and those are left to the caller. Messages it cannot read all of: not used.
  let unsearched: readonly string[] = [];
  if (exitCode === 2) {
    const named = stderr.length >= maxMessages ? undefined : walkErrors(stderr, options.start);
    // An error it named nowhere: what it missed is not known.
    if (named === undefined || named.length === 0) return undefined;
    unsearched = named;
  } else if (exitCode !== 0 && exitCode !== 1) return undefined;
  const answer = parseWalkOutput(readOutputFile(output));
  if (answer === undefined) return undefined;
  // How many it named in all (a walk shorter than one poll says so only here).
  if (answer.matched.length > named) onMatched?.(answer.matched.length);
  return { ...answer, unsearched, startedAt };
}

/** How often a walk under way says how many files with a match ripgrep named so far. */
const PROGRESS_EVERY_MS = 250;

/** rg's messages read at most: a tree with more unreadable folders than this names is walked instead. */
const maxMessages = 256 * 1024;

/**
 * What ripgrep could not search, from its messages: one line per folder it could not list or file
 * it could not read, `[rg: ]path: reason (os error N)`, the path as it walked it (`./a/b` from the root,
 * `start/a/b` otherwise). Undefined when a line is anything else (a name with a newline, or not
 * UTF-8 and printed lossily, a message of another kind) or names a path outside `start`: the
 * answer is then not used.
 */
export function walkErrors(stderr: string, start: string): string[] | undefined {
  const paths: string[] = [];
  for (const line of stderr.split('\n')) {
    if (line === '') continue;
    // ripgrep 14 starts each message with 'rg: ' (13 did not).
    const error = /^(?:rg: )?(.+): [^:]+ \(os error \d+\)$/.exec(line);
    if (error === null || error[1]!.includes('\uFFFD')) return undefined;
    const path = start === '' ? (error[1]!.startsWith('./') ? error[1]!.slice(2) : undefined) : error[1]!;
    if (path === undefined || path === '' || (start !== '' && path !== start && !path.startsWith(`${start}/`))) {
      return undefined;
    }
    paths.push(path);
  }
  return paths;
}

// A leading U+FEFF is part of a name, not a mark to drop.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `name\0count\n` per file, then the statistics' text (a name may hold a newline, never a NUL).
 * Undefined when the output is not UTF-8 (a name that could not be named back to the sandbox: the
 * file-list mode handles it; the statistics are ASCII), a count is not one, or the count of files
 * searched is missing. The output is decoded at once (UTF-8 never holds a NUL or a newline inside
 * a character): a word in most of 28k files named them in 1.2 MB, parsed in ~6 ms where a decoder
 * call and a regex per name took ~25.
 */
export function parseWalkOutput(output: Buffer): Omit<RipgrepWalkAnswer, 'startedAt'> | undefined {
  let text: string;
  try {
    text = utf8.decode(output);
  } catch {
    return undefined;
  }
  const matched: string[] = [];
  const lines: number[] = [];
  let start = 0;
  for (let end = text.indexOf('\0'); end !== -1; end = text.indexOf('\0', start)) {
    const lineEnd = text.indexOf('\n', end + 1);
    const count = lineEnd === -1 ? undefined : countIn(text, end + 1, lineEnd);
    if (count === undefined) return undefined;
    // './a.txt' when the start is the root: named as the sandbox names it.
    matched.push(text.startsWith('./', start) ? text.slice(start + 2, end) : text.slice(start, end));
    lines.push(count);
    start = lineEnd + 1;
  }
  const searched = /^(\d+) files searched$/m.exec(text.slice(start));
  return searched === null ? undefined : { matched, lines, searched: Number(searched[1]), unsearched: [] };
}

/** The count written from `from` to `to`: digits, the first not 0; else undefined. */
function countIn(text: string, from: number, to: number): number | undefined {
  if (to === from || text.charCodeAt(from) === 0x30) return undefined;
  let count = 0;
  for (let at = from; at < to; at += 1) {
    const digit = text.charCodeAt(at) - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    count = count * 10 + digit;
  }
  return count;
}
