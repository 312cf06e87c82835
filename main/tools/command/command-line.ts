import { parse } from 'shell-quote';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';

/**
 * Splits a command line into argv the way a POSIX shell would quote it (single and double quotes,
 * backslashes), without running a shell: no variables, globs, pipes or redirects. `$HOME` stays the
 * literal text; an operator is refused with a hint to use shell: true.
 */
export function splitCommandLine(command: string): Result<string[]> {
  const entries = parse(command, (name) => `$${name}`);
  const argv: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') argv.push(entry);
    else if ('comment' in entry) break;
    else if (entry.op === 'glob') argv.push(entry.pattern);
    else {
      return err(
        'invalid_arguments',
        `The command contains the shell operator '${entry.op}'. Without a shell it cannot run; pass shell: true to run it through the system shell.`,
      );
    }
  }
  if (argv.length === 0) return err('invalid_arguments', 'The command is empty.');
  return ok(argv);
}

/** The words of each simple command in a line, split at ; && || | & and parentheses (for the deny-list). */
function segmentsOf(command: string): string[][] {
  const segments: string[][] = [[]];
  for (const entry of parse(command, (name) => `$${name}`)) {
    if (typeof entry === 'string') (segments.at(-1) as string[]).push(entry);
    else if ('comment' in entry) break;
    else if (entry.op === 'glob') (segments.at(-1) as string[]).push(entry.pattern);
    else segments.push([]);
  }
  return segments.filter((segment) => segment.length > 0);
}

const baseName = (word: string) =>
  word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1).toLowerCase();

const neverRun = new Set([
  'sudo',
  'su',
  'doas',
  'pkexec',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'diskpart',
  'format',
]);
const systemRoots = new Set(['/', '/*', '~', '~/', '$HOME', '$HOME/', 'C:\\', 'C:/', '/home', '/usr', '/etc', '/var']);

/** Why a simple command is refused, or undefined. */
function refusal(words: readonly string[]): string | undefined {
  // Leading wrappers (env, nice, nohup, time, command) do not change what runs.
  let at = 0;
  while (
    at < words.length - 1 &&
    ['env', 'nice', 'nohup', 'time', 'command', 'exec'].includes(baseName(words[at] ?? ''))
  ) {
    at += 1;
  }
  const program = baseName(words[at] ?? '');
  const rest = words.slice(at + 1);
  if (neverRun.has(program)) return `'${program}' changes the system or its privileges`;
  if (program.startsWith('mkfs') || program === 'fdisk' || program === 'parted' || program === 'wipefs') {
    return `'${program}' rewrites disks`;
  }
  if (program === 'dd' && rest.some((word) => /^of=\/dev\//.test(word))) return "'dd' onto a device";
  if (program === 'rm') {
    const recursive = rest.some((word) => /^-[a-zA-Z]*[rR]/.test(word) || word === '--recursive');
    if (recursive && rest.some((word) => systemRoots.has(word) || word === '--no-preserve-root')) {
      return "'rm -r' on the file system root or a home folder";
    }
  }
  if ((program === 'chmod' || program === 'chown') && rest.some((word) => /^-[a-zA-Z]*R/.test(word))) {
    if (rest.some((word) => systemRoots.has(word))) return `'${program} -R' on the file system root`;
  }
  return undefined;
}

/**
 * A courtesy, not a security boundary: obviously destructive commands (sudo, mkfs, rm -rf /, a fork
 * bomb...) are refused before the user is even asked. The approval dialog is the boundary; anything
 * this list misses still needs the user's yes.
 */
export function checkCommandDenyList(command: string): Result<void> {
  if (/:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/.test(command)) {
    return err('command_denied', 'This looks like a fork bomb; Familiar never runs it.');
  }
  let segments: string[][];
  try {
    segments = segmentsOf(command);
  } catch {
    return ok(undefined);
  }
  for (const words of segments) {
    const reason = refusal(words);
    if (reason !== undefined) {
      return err(
        'command_denied',
        `Refused: ${reason}. Familiar's built-in list never runs such commands; if the user really wants it, they can run it themselves.`,
        { command },
      );
    }
  }
  return ok(undefined);
}
