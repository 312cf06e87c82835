import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// The sentinel and states live in the package's constants module; its index does not re-export them.
import { FuseState, SENTINEL } from '@electron/fuses/dist/constants';

/**
 * Electron's binary cannot be downloaded here, but electron-builder accepts an unpacked Electron
 * (`electronDist`). This stand-in is a file that carries what packaging touches: the fuse wire
 * (sentinel, version 1, length, one byte per fuse) with Electron 45's default states, so the real
 * @electron/fuses flips it exactly as it would flip the real binary.
 */
export const electronDefaultFuses: readonly FuseState[] = [
  FuseState.ENABLE, // RunAsNode
  FuseState.DISABLE, // EnableCookieEncryption
  FuseState.ENABLE, // EnableNodeOptionsEnvironmentVariable
  FuseState.ENABLE, // EnableNodeCliInspectArguments
  FuseState.DISABLE, // EnableEmbeddedAsarIntegrityValidation
  FuseState.DISABLE, // OnlyLoadAppFromAsar
  FuseState.DISABLE, // LoadBrowserProcessSpecificV8Snapshot
  FuseState.ENABLE, // GrantFileProtocolExtraPrivileges
];

/** Chromium's UI string packs, as Electron ships them; packaging keeps only electronLanguages. */
export const standInLocales = ['de', 'en-US', 'fr', 'ru', 'zh-CN', 'zh-TW'] as const;

/** Writes a Linux Electron distribution directory (`electron`, `version`, `locales/`); returns its path. */
export async function writeStandInElectron(dir: string, version: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const binary = join(dir, 'electron');
  await writeFile(
    binary,
    Buffer.concat([
      Buffer.from('#!/bin/sh\necho "stand-in Electron for packaging tests"; exit 1\n'),
      Buffer.from(SENTINEL, 'latin1'),
      Buffer.from([1, electronDefaultFuses.length, ...electronDefaultFuses]),
      Buffer.from('\n'),
    ]),
  );
  await chmod(binary, 0o755);
  await writeFile(join(dir, 'version'), version);
  await mkdir(join(dir, 'locales'));
  for (const locale of standInLocales) await writeFile(join(dir, 'locales', `${locale}.pak`), locale);
  return dir;
}
