import type { ChildEnvironmentOptions } from './child-environment';
import type { HostDecision } from './network-proxy';

/**
 * What a confined start is made of, apart from how each OS enforces it: the rules (process-rules.ts
 * writes them per kind of program), the request to start a child and the launch that comes out
 * (confined-launch.ts decides it; confinement.ts and seatbelt-*.ts translate the rules for bwrap and
 * Seatbelt). Types only, so every translator can name them without importing another.
 */

export interface ConfinementRules {
  /** Absolute folders the process may write (the workspace for a command; `.git` for git). */
  readonly writable: readonly string[];
  /** Absolute folders the process may read besides the system (e.g. the workspace, read-only). */
  readonly readable: readonly string[];
  /** Absolute paths inside a writable folder that stay read-only (SOUL.md, .git/hooks...). */
  readonly readOnly: readonly string[];
  /** Absolute paths the process must not see at all (memory files while memory is off). */
  readonly hidden: readonly string[];
  /** Absolute folders hidden wholesale (Familiar's home, the user's home): nothing of them shows. */
  readonly hiddenTrees: readonly string[];
  /** Absolute paths inside a hidden tree put back read-only (toolchains, ~/.gitconfig). */
  readonly readableInHidden: readonly string[];
  /**
   * Hidden trees left writable: the process sees an empty folder of its own (a tmpfs that goes with
   * it) with only what readableInHidden puts back, e.g. a language server's caches in its home.
   * Default: every hidden tree is read-only.
   */
  readonly scratchTrees?: readonly string[];
  /** The working folder inside the sandbox (a real absolute path that stays visible). */
  readonly cwd: string;
}

export interface LaunchRequest {
  readonly file: string;
  readonly args: readonly string[];
  /** `file` is one command line for the platform shell (run inside the sandbox as `/bin/sh -c`). */
  readonly shell: boolean;
  /**
   * The working folder as the child names it at start: a real path, or `/proc/self/fd/<n>` for a
   * descriptor (one of `inheritFds`, counted from 3, else one this process holds).
   */
  readonly cwd: string;
  readonly environment: ChildEnvironmentOptions;
  /** Descriptors the child inherits as 3, 4, ...: folders it names as /proc/self/fd/3, ... */
  readonly inheritFds?: readonly number[];
  /** process-rules.ts (rulesFor), without `cwd`. Undefined: the child runs with the user's rights. */
  readonly confinement?: Omit<ConfinementRules, 'cwd'>;
  /** The way to the network for a confined process (network-bridge.ts): started first, it hands over to the program. */
  readonly bridge?: NetworkBridge;
}

export interface Launch {
  /** What to spawn: the program itself, or bwrap with the program after its arguments. */
  readonly file: string;
  readonly args: string[];
  readonly shell: boolean;
  readonly cwd: string;
  readonly environment: ChildEnvironmentOptions;
  readonly confined: boolean;
  /**
   * Set where the program could as well be handed to a confinement made ahead (prestarted-launch.ts):
   * bubblewrap's own arguments (`args` before the program) and the program with its arguments.
   * Only where the start leaves nothing to undo (no placeholders) and needs no network bridge.
   */
  readonly handOver?: { readonly confinementArgs: readonly string[]; readonly program: readonly string[] };
  /**
   * Called once the child is gone (exit, or a start that failed; more calls do nothing): removes
   * the mount points of the placeholders it was given, unless another child still uses them.
   */
  readonly release: () => void;
}

/** A confined process's one way to the network: Familiar's gated proxy (network-bridge.ts opens it). */
export interface NetworkBridge {
  /** macOS: the loopback port the Seatbelt profile opens, and nothing else (openLoopbackBridge). */
  readonly loopbackPort?: number;
  /** bwrap mounts to add (the proxy's folder, read-only). */
  readonly bwrapMounts: readonly string[];
  /** The command line as the sandbox runs it: the bridge first, then `program`. */
  wrap(program: readonly string[]): string[];
  /** Set for the command: every proxy variable to the bridge, nothing exempt. */
  readonly environment: Readonly<Record<string, string>>;
  /** Each host the command asked for, with the last answer it got. */
  decisions(): HostDecision[];
  close(): Promise<void>;
}
