import { constants } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ChildEnvironmentOptions } from './child-environment';
import { launchFor } from './confined-launch';
import { confinementMode } from './confinement';
import type { ConfinementRules } from './launch-types';
import { openBridgeFor } from './network-bridge';
import type { NetworkBridge } from './launch-types';
import type { NetworkProxyOptions } from './network-proxy';
import { hasAccess } from './program-lookup';
import { killTree, spawnLaunch } from './spawn-launch';
import type { ChildProcessWithoutNullStreams } from './spawn-launch';

/**
 * Long-lived children that speak over stdio (language servers). The one-shot runner
 * (process-runner.ts) collects output and ends the child; a server instead keeps its pipes open for
 * the protocol. The rules are the same: the allow-listed environment (no API keys reach a server a
 * workspace may have chosen), its own process group so a kill reaches what it started (tsserver
 * under typescript-language-server), no shell, and the confinement its rules ask for.
 */
export interface ServerSpawnSpec {
  readonly file: string;
  readonly args: readonly string[];
  /** Real absolute directory (the workspace root). */
  readonly cwd: string;
  readonly environment: ChildEnvironmentOptions;
  /** process-rules.ts (rulesFor('language-server')), without `cwd`. Undefined: the user's rights. */
  readonly confinement?: Omit<ConfinementRules, 'cwd'>;
}

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** True when it runs inside the operating system's confinement (bubblewrap). */
  readonly confined: boolean;
  /** SIGTERM to the group, SIGKILL after a grace period if it is still there. */
  stop(graceMs?: number): void;
}

export function spawnServerProcess(spec: ServerSpawnSpec, bridge?: NetworkBridge): ServerProcess {
  const launch = launchFor({ ...spec, shell: false, ...(bridge === undefined ? {} : { bridge }) });
  const child = spawnLaunch(launch, {
    stdio: ['pipe', 'pipe', 'pipe'],
    ownGroup: true,
  }) as ChildProcessWithoutNullStreams;
  // A server that dies mid-write would otherwise throw EPIPE from nowhere.
  child.stdin.on('error', () => undefined);
  let exited = false;
  child.once('exit', () => {
    exited = true;
    void bridge?.close();
  });
  return {
    child,
    confined: launch.confined,
    stop(graceMs = 1000) {
      if (exited) return;
      killTree(child, 'SIGTERM');
      const timer = setTimeout(() => {
        if (!exited) killTree(child, 'SIGKILL');
      }, graceMs);
      timer.unref();
    },
  };
}

/**
 * A server that may reach the network (a user's MCP server, issue 29): confined, each host it
 * reaches for goes to `network.gate` through a proxy that lives as long as the server. Without
 * confinement or socat there is no bridge: unconfined it has the user's network, confined none.
 */
export async function startServerProcess(
  spec: ServerSpawnSpec & { readonly network?: NetworkProxyOptions },
): Promise<ServerProcess> {
  const { network, ...rest } = spec;
  const mode = spec.confinement === undefined ? undefined : confinementMode();
  const bridge = await openBridgeFor(mode, network);
  try {
    return spawnServerProcess(rest, bridge);
  } catch (error) {
    await bridge?.close();
    throw error;
  }
}

// Not named `require`: the bundle declares its own at the top of the chunk this lands in.
const resolveFromApp = createRequire(import.meta.url);

/**
 * Where the packaged app keeps the language servers a plain `node` runs (electron-builder.yml:
 * extraResources, outside app.asar). Electron sets process.resourcesPath; plain Node has none.
 */
const shippedServersDir = (): string | undefined => {
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  return resources === undefined ? undefined : join(resources, 'language-servers');
};

/**
 * A file inside a package Familiar ships (typescript-language-server's cli, typescript's lib), or
 * undefined when the package is missing: from the packaged app's resources when it is there, else
 * the app's own node_modules; never the workspace's.
 */
export function bundledPackageFile(
  packageName: string,
  file: string,
  shippedDir: string | undefined = shippedServersDir(),
): string | undefined {
  if (shippedDir !== undefined) {
    const shipped = join(shippedDir, packageName, file);
    if (bundledFileExists(shipped)) return shipped;
  }
  try {
    return join(dirname(resolveFromApp.resolve(`${packageName}/package.json`)), file);
  } catch {
    return undefined;
  }
}

/** True when a file Familiar ships is really there (a packaged build may have left it in the archive). */
export const bundledFileExists = (file: string): boolean => hasAccess(file, constants.R_OK);
