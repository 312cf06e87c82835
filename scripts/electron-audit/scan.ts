import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, join, relative, sep } from 'node:path';
import type { Finding } from './findings';

/** The code that runs in Electron: the main process, the preload and the page. */
export const scannedLayers = ['main', 'preload', 'renderer'] as const;

/**
 * AvailableSecurityFixesGlobalCheck downloads Electron's release list and caches it inside
 * node_modules: a network-dependent answer (and a write outside our temp dir) has no place in a
 * deterministic gate. Electron's version is pinned in package.json and upgraded deliberately.
 */
export const excludedChecks = ['AvailableSecurityFixesGlobalCheck'] as const;

/**
 * Electronegativity asks GitHub for updated translations (got 11, one-second timeout) and falls
 * back to its bundled English. Offline on Node 24, got's retry timer then throws after the request
 * already failed ("The `onCancel` handler was attached after the promise settled"), which crashes
 * the gate. The gate is offline by design: the request fails at once instead, before any timer.
 * Installed before Electronegativity is first loaded, for its copy of got only.
 */
function keepElectronegativityOffline(): void {
  const requireHere = createRequire(import.meta.url);
  const requireFromIt = createRequire(requireHere.resolve('@doyensec/electronegativity/dist/locales/i18n.js'));
  const gotPath = requireFromIt.resolve('got');
  if (requireFromIt.cache[gotPath] !== undefined) return;
  const offline = () => Promise.reject(new Error('offline: the Electron security gate makes no network requests'));
  requireFromIt.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: offline } as NodeJS.Module;
}

/** Tests and test helpers never run in Electron and are not shipped. */
export function isShippedSource(path: string): boolean {
  const name = basename(path);
  return !/\.test\.tsx?$/.test(name) && name !== 'test-setup.ts' && !path.split(sep).includes('test-support');
}

/** What Electronegativity's loader picks up from a directory. */
const scannable = /\.(jsx?|tsx?|html?)$|package\.json$/;

export interface ScanResult {
  readonly findings: Finding[];
  readonly unparsed: { file: string; message: string }[];
  readonly scannedFiles: number;
  readonly checks: number;
}

/**
 * Copies the layers (and package.json, from which Electronegativity reads the Electron version)
 * into a fresh temp dir, scans the copy, and deletes it: nothing is written anywhere else.
 */
export async function scanWithElectronegativity(
  root: string,
  layers: readonly string[] = scannedLayers,
): Promise<ScanResult> {
  const workDir = await mkdtemp(join(tmpdir(), 'familiar-electronegativity-'));
  try {
    const app = join(workDir, 'app');
    for (const layer of layers) {
      await cp(join(root, layer), join(app, layer), { recursive: true, filter: isShippedSource });
    }
    await cp(join(root, 'package.json'), join(app, 'package.json'));
    const electron = JSON.parse(await readFile(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
      version: string;
    };
    keepElectronegativityOffline();
    const { default: electronegativity } = await import('@doyensec/electronegativity');
    const result = await electronegativity({
      input: app,
      isRelative: true,
      excludeFromScan: [...excludedChecks],
      electronVersionOverride: electron.version,
    });
    const toRepoPath = (file: string) => file.split(sep).join('/');
    return {
      findings: result.issues.map((issue) => ({
        check: issue.id,
        severity: issue.severity.name,
        confidence: issue.confidence.name,
        file: toRepoPath(issue.file),
        line: issue.location.line,
        code: issue.sample,
        description: issue.description,
      })),
      unparsed: result.errors
        .filter((error) => !error.tolerable)
        .map((error) => ({ file: relative(app, error.file).split(sep).join('/'), message: error.message })),
      scannedFiles: (await readdir(app, { recursive: true })).filter((path) => scannable.test(path)).length,
      checks: result.globalChecks + result.atomicChecks,
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
