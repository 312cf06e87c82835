import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Configuration } from 'app-builder-lib';
// electron-builder's own loader and validator (what `electron-builder` runs before packing).
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';

/**
 * The validator only touches its logger to record a failure when debug logging is on; a disabled
 * stand-in keeps builder-util (an internal package of electron-builder) out of our imports.
 */
const quietDebugLogger = { isEnabled: false, add: () => undefined } as unknown as Parameters<
  typeof validateConfiguration
>[1];

export const projectRoot = join(import.meta.dirname, '..', '..');

/**
 * electron-builder.yml as electron-builder reads it, checked against its JSON schema; `overrides`
 * are merged over it as `build({ config })` and `-c.x=y` merge them.
 */
export async function loadBuilderConfig(
  root: string = projectRoot,
  overrides: Configuration | null = null,
): Promise<Configuration> {
  // getConfig merges into the object it is given: hand it a copy.
  const config = await getConfig(root, null, overrides === null ? null : structuredClone(overrides));
  await validateConfiguration(config, quietDebugLogger);
  return config;
}

export async function validateBuilderConfig(config: Configuration): Promise<void> {
  await validateConfiguration(config, quietDebugLogger);
}

export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly license?: string;
  readonly homepage?: string;
  readonly main?: string;
  readonly author?: { readonly name?: string; readonly email?: string } | string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

export async function readPackageManifest(root: string = projectRoot): Promise<PackageManifest> {
  return JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as PackageManifest;
}
