import { extname, isAbsolute } from 'node:path';
import picomatch from 'picomatch';
import type { UserServer } from '../../../shared/settings';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { findOnPath } from '../../platform/processes/program-lookup';
import { bundledFileExists, bundledPackageFile } from '../../platform/processes/server-process';

/** How to start one language server: a program and its arguments, plus what it must be told at initialize. */
export interface ServerCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** Variables set for this server only (ELECTRON_RUN_AS_NODE for a Node script run by Electron). */
  readonly set?: Readonly<Record<string, string>>;
}

export interface ServerDefinition {
  /** Stable id: one running server per workspace and id. */
  readonly id: string;
  /** File extensions (lowercase, with the dot) this server answers for. */
  readonly extensions: readonly string[];
  /** A server the user added: answers for the files its patterns match (else: by extension). */
  matches?(relPath: string): boolean;
  /** Added in settings (shown so in the panel; its install hint names the setting). */
  readonly userAdded?: boolean;
  /** LSP languageId of a file, by extension. */
  languageId(extension: string): string;
  /** Where to find the program; undefined when it is not installed. */
  resolve(): ServerCommand | undefined;
  /** Shown with language_server_unavailable. */
  readonly installHint: string;
}

/** What decides how a Node script can be run here (a parameter so each case is testable). */
export interface NodeRuntime {
  /** Running inside Electron (the desktop app), not plain Node (browser mode, MCP, tests). */
  readonly electron: boolean;
  /**
   * The packaged app: its fuses switch runAsNode off (electron-builder.yml), so the Electron binary
   * cannot run a script as Node; spawning it would start a second Familiar instead.
   */
  readonly packaged: boolean;
  /** `node` found on PATH. */
  readonly nodeOnPath: string | undefined;
  readonly execPath: string;
}

const currentRuntime = (): NodeRuntime => {
  const electron = process.versions['electron'] !== undefined;
  return {
    electron,
    // `electron path/to/app` (development) sets defaultApp; the packaged binary does not.
    packaged: electron && (process as { defaultApp?: boolean }).defaultApp !== true,
    nodeOnPath: electron ? findOnPath('node') : undefined,
    execPath: process.execPath,
  };
};

/**
 * A Node script. Plain Node runs it with its own binary. Electron can only with ELECTRON_RUN_AS_NODE,
 * which the packaged app's runAsNode fuse ignores: there a `node` on PATH is needed (typescript-
 * language-server also forks tsserver with its own binary, so Electron's utilityProcess cannot host
 * it; see the report of issue 17), and without one the server is unavailable with an install hint.
 * In development the Electron binary with ELECTRON_RUN_AS_NODE is the fallback.
 */
export function nodeScriptCommand(
  script: string,
  args: readonly string[],
  runtime: NodeRuntime = currentRuntime(),
): ServerCommand | undefined {
  if (!runtime.electron) return { file: runtime.execPath, args: [script, ...args] };
  if (runtime.nodeOnPath !== undefined) return { file: runtime.nodeOnPath, args: [script, ...args] };
  if (runtime.packaged) return undefined;
  return { file: runtime.execPath, args: [script, ...args], set: { ELECTRON_RUN_AS_NODE: '1' } };
}

const typescript: ServerDefinition = {
  id: 'typescript',
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  languageId: (extension) =>
    ({
      '.tsx': 'typescriptreact',
      '.jsx': 'javascriptreact',
      '.js': 'javascript',
      '.mjs': 'javascript',
      '.cjs': 'javascript',
    })[extension] ?? 'typescript',
  resolve() {
    // Shipped with Familiar (package.json dependency): works without anything on PATH.
    const cli = bundledPackageFile('typescript-language-server', 'lib/cli.mjs');
    return cli !== undefined && bundledFileExists(cli) ? nodeScriptCommand(cli, ['--stdio']) : undefined;
  },
  installHint:
    'Familiar ships typescript-language-server, which runs on Node.js: in the desktop app, install Node.js 20 or later so `node` is on PATH (or reinstall Familiar if the server is missing).',
};

/**
 * A server found on PATH under `program`. Most answer for one language whatever the extension;
 * clangd tells C, C++ and Objective-C apart by it.
 */
const onPathServer = (
  server: Omit<ServerDefinition, 'languageId' | 'resolve'> & {
    readonly language: string | ((extension: string) => string);
    readonly program: string;
    readonly args: readonly string[];
  },
): ServerDefinition => {
  const { language, program, args, ...definition } = server;
  return {
    ...definition,
    languageId: typeof language === 'string' ? () => language : language,
    resolve: () => {
      const file = findOnPath(program);
      return file === undefined ? undefined : { file, args };
    },
  };
};

const onPathServers: readonly ServerDefinition[] = [
  onPathServer({
    id: 'pyright',
    extensions: ['.py', '.pyi'],
    language: 'python',
    program: 'pyright-langserver',
    args: ['--stdio'],
    installHint:
      'Install pyright (`npm install -g pyright` or `pip install pyright`) so pyright-langserver is on PATH.',
  }),
  onPathServer({
    id: 'gopls',
    extensions: ['.go'],
    language: 'go',
    program: 'gopls',
    args: [],
    installHint: 'Install gopls (`go install golang.org/x/tools/gopls@latest`) and make sure it is on PATH.',
  }),
  onPathServer({
    id: 'rust-analyzer',
    extensions: ['.rs'],
    language: 'rust',
    program: 'rust-analyzer',
    args: [],
    installHint: 'Install rust-analyzer (`rustup component add rust-analyzer`) and make sure it is on PATH.',
  }),
  onPathServer({
    id: 'clangd',
    extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx', '.m', '.mm'],
    language: (extension) =>
      extension === '.c' || extension === '.h' ? 'c' : extension.startsWith('.m') ? 'objective-c' : 'cpp',
    program: 'clangd',
    args: ['--background-index=false'],
    installHint: 'Install clangd (e.g. `apt install clangd`, `brew install llvm`) and make sure it is on PATH.',
  }),
  onPathServer({
    id: 'dart',
    extensions: ['.dart'],
    language: 'dart',
    program: 'dart',
    args: ['language-server', '--protocol=lsp'],
    installHint: 'Install the Dart SDK (or Flutter) and make sure `dart` is on PATH.',
  }),
];

export const builtInServers: readonly ServerDefinition[] = [typescript, ...onPathServers];

/**
 * A pattern of a user-added server as a matcher of workspace-relative paths: `.lua` is an
 * extension; a glob without a slash matches the file name in any folder; with one, the whole path.
 */
function patternMatcher(pattern: string): (relPath: string) => boolean {
  if (/^\.[^/*?[\]{}]+$/.test(pattern)) {
    const extension = pattern.toLowerCase();
    return (relPath) => extensionOf(relPath) === extension;
  }
  return picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
}

/** A server from settings (code.servers): its command found on PATH (or an absolute path), no shell. */
export function userServerDefinition(server: UserServer): ServerDefinition {
  const matchers = server.patterns.map(patternMatcher);
  return {
    id: server.id,
    userAdded: true,
    extensions: server.patterns.filter((pattern) => /^\.[^/*?[\]{}]+$/.test(pattern)).map((p) => p.toLowerCase()),
    matches: (relPath) => matchers.some((matches) => matches(relPath)),
    languageId: () => server.languageId,
    resolve: () => {
      const file = isAbsolute(server.command)
        ? bundledFileExists(server.command)
          ? server.command
          : undefined
        : findOnPath(server.command);
      return file === undefined ? undefined : { file, args: server.args };
    },
    installHint: `Check the command of the '${server.id}' server in Settings → Code (\`${server.command}\` was not found).`,
  };
}

/** What the catalog holds with these settings: the user's servers first, so one can replace a built-in. */
export const catalogWith = (userServers: readonly UserServer[]): readonly ServerDefinition[] => [
  ...userServers.map(userServerDefinition),
  ...builtInServers,
];

const covers = (server: ServerDefinition, relPath: string, extension: string): boolean =>
  server.matches === undefined ? server.extensions.includes(extension) : server.matches(relPath);

export const extensionOf = (relPath: string): string => extname(relPath).toLowerCase();

/** The server definition for a file, by extension; undefined for files no server covers. */
export function definitionFor(servers: readonly ServerDefinition[], relPath: string): ServerDefinition | undefined {
  const extension = extensionOf(relPath);
  return servers.find((server) => covers(server, relPath, extension));
}

/** A server that covers the file and can be started, or the typed reason it cannot. */
export function commandFor(
  server: ServerDefinition | undefined,
  relPath: string,
): Result<{ server: ServerDefinition; command: ServerCommand }> {
  if (server === undefined) {
    return err(
      'language_server_unavailable',
      `No language server covers '${relPath}' (${extensionOf(relPath) || 'no extension'}). Use search_in_code instead.`,
    );
  }
  const command = server.resolve();
  if (command === undefined) {
    return err(
      'language_server_unavailable',
      `The ${server.id} language server is not installed. ${server.installHint}`,
      {
        server: server.id,
        install_hint: server.installHint,
      },
    );
  }
  return ok({ server, command });
}
