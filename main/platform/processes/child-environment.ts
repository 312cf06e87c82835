/**
 * The one place a child process's environment is built (run_command, git, anything the runner
 * starts). An allow-list, not a deny-list: a user's shell exports keys for every service they use
 * (GEMINI_API_KEY, AWS_SECRET_ACCESS_KEY, GH_TOKEN...) and no list of known names keeps up with
 * them, while a command needs only a handful of variables to find its programs, its home and its
 * locale. Anything else passes only when the user names it in settings (commands.passEnvironment).
 */

/** Enough for programs to run, find their files and speak the user's language; nothing that grants access. */
const commonNames = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'SHELL',
  'TZ',
];

/** A GUI program started by a command needs its display; nothing else from the desktop session. */
const posixNames = ['DISPLAY', 'WAYLAND_DISPLAY'];

/**
 * Without these, Windows programs fail in odd ways: no SystemRoot breaks Winsock and crypto, no
 * PATHEXT makes `npm` unfindable, no APPDATA sends npm and git to the wrong home.
 */
const windowsNames = [
  'Path',
  'SystemRoot',
  'SystemDrive',
  'ComSpec',
  'PATHEXT',
  'WINDIR',
  'USERPROFILE',
  'USERNAME',
  'USERDOMAIN',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'CommonProgramFiles',
  'CommonProgramFiles(x86)',
  'CommonProgramW6432',
  'ALLUSERSPROFILE',
  'PUBLIC',
  'OS',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
];

/**
 * Names that hold credentials by convention. The allow-list never names them, but LC_* is a
 * pattern and a future entry might be too: these are refused unless the user names them exactly.
 */
const secretPatterns = [
  /_KEY$/i,
  /_TOKEN$/i,
  /_SECRET$/i,
  /_PASSWORD$/i,
  /_CREDENTIALS$/i,
  /^AWS_/i,
  /^GOOGLE_APPLICATION_CREDENTIALS$/i,
  /^NPM_TOKEN$/i,
  /^GH_TOKEN$/i,
  /^SSH_AUTH_SOCK$/i,
];

export const looksSecret = (name: string): boolean => secretPatterns.some((pattern) => pattern.test(name));

export interface ChildEnvironmentOptions {
  /** Names the user chose to pass (settings: commands.passEnvironment); exact names, values from `source`. */
  readonly pass: readonly string[];
  /** Dropped even when allowed or named: git's own GIT_* variables would redirect it. */
  readonly drop?: (name: string) => boolean;
  /** Set last, never taken from `source`: the runner's own switches (GIT_TERMINAL_PROMPT=0...). */
  readonly set?: Readonly<Record<string, string>>;
  /** Default: this process's environment. */
  readonly source?: NodeJS.ProcessEnv;
  /** Default: this platform. Windows names are case-insensitive. */
  readonly platform?: NodeJS.Platform;
  /** The login shell's PATH, put before the inherited one; default: the one adopted at start, if any. */
  readonly loginPath?: string | undefined;
}

/**
 * The desktop app reads the user's login-shell PATH once at start (login-shell-path.ts) and adopts
 * it here; process-wide, as the environment it extends is. Browser and MCP mode start from a
 * terminal, whose PATH is the login one already, and never set it.
 */
let adoptedLoginPath: string | undefined;

export function adoptLoginShellPath(path: string | undefined): void {
  adoptedLoginPath = path;
}

/**
 * The login shell's entries first (where the user's terminal finds `node`), then the rest, each once.
 * Relative entries ('.', 'bin') of the login PATH are dropped: commands run in the workspace, where
 * they would make a file the assistant wrote win over the real `git` or `ls`.
 */
export function mergePath(loginPath: string, inherited: string | undefined, delimiter = ':'): string {
  const login = loginPath.split(delimiter).filter((entry) => entry.startsWith('/'));
  const entries = [...login, ...(inherited ?? '').split(delimiter)].filter((entry) => entry !== '');
  return [...new Set(entries)].join(delimiter);
}

/** The environment a child process starts with: allow-list, then the user's names, then `set`. */
export function childEnvironment(options: ChildEnvironmentOptions): Record<string, string> {
  const platform = options.platform ?? process.platform;
  const windows = platform === 'win32';
  const fold = (name: string) => (windows ? name.toUpperCase() : name);
  const allowed = new Set([...commonNames, ...(windows ? windowsNames : posixNames)].map(fold));
  const named = new Set(options.pass.map(fold));
  const passes = (name: string): boolean => {
    const key = fold(name);
    if (named.has(key)) return true;
    const listed = allowed.has(key) || /^LC_[A-Z_]+$/.test(key);
    return listed && !looksSecret(name);
  };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.source ?? process.env)) {
    if (value === undefined || !passes(name) || options.drop?.(name) === true) continue;
    env[name] = value;
  }
  const loginPath = 'loginPath' in options ? options.loginPath : adoptedLoginPath;
  // Windows has no login shell to ask: its PATH comes from the registry, complete, at every launch.
  if (loginPath !== undefined && !windows) env['PATH'] = mergePath(loginPath, env['PATH']);
  return { ...env, ...options.set };
}
