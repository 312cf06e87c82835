import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Configuration, TargetConfiguration } from 'app-builder-lib';
import { describe, expect, it } from 'vitest';
import FpmTarget from 'app-builder-lib/out/targets/FpmTarget';
import { loadBuilderConfig, projectRoot, readPackageManifest, validateBuilderConfig } from './builder-config';

/** Target names and architectures per platform, whatever shape the yml used for them. */
function targetsOf(platform: { target?: unknown } | null | undefined): Record<string, string[]> {
  const list = Array.isArray(platform?.target) ? (platform.target as (string | TargetConfiguration)[]) : [];
  return Object.fromEntries(
    list.map((target) =>
      typeof target === 'string'
        ? [target, []]
        : [target.target, Array.isArray(target.arch) ? target.arch.map(String) : target.arch ? [target.arch] : []],
    ),
  );
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(loadBuilderConfig()).resolves.toMatchObject({
      appId: 'app.familiar.desktop',
      productName: 'Familiar',
    });
  });

  it('is validated for real: a misspelt option is rejected', async () => {
    const config = await loadBuilderConfig();
    const misspelt = { ...config, nsis: { ...config.nsis, oneClik: true } } as Configuration;
    await expect(validateBuilderConfig(misspelt)).rejects.toThrow(/configuration\.nsis/);
  });

  it('builds every promised installer: AppImage/deb/tar.gz, dmg/zip for both Mac CPUs, NSIS and portable', async () => {
    const config = await loadBuilderConfig();
    expect(Object.keys(targetsOf(config.linux)).sort()).toEqual(['AppImage', 'deb', 'tar.gz']);
    expect(targetsOf(config.mac)).toEqual({ dmg: ['x64', 'arm64'], zip: ['x64', 'arm64'] });
    expect(targetsOf(config.win)).toEqual({ nsis: ['x64'], portable: ['x64'] });
    expect(config.fileAssociations).toBeUndefined();
    expect(config.protocols).toBeUndefined();
  });

  it('installs per user on Windows, never asking for administrator rights', async () => {
    const { nsis, portable, win } = await loadBuilderConfig();
    expect(nsis).toMatchObject({ oneClick: true, perMachine: false, allowElevation: false });
    expect(win?.requestedExecutionLevel ?? 'asInvoker').toBe('asInvoker');
    expect(portable?.requestExecutionLevel ?? 'user').toBe('user');
  });

  it('packs an asar and sets the hardening fuses', async () => {
    const config = await loadBuilderConfig();
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
    });
  });

  it("publishes to the GitHub repository package.json's homepage names, for electron-updater", async () => {
    const [{ publish }, { homepage }] = await Promise.all([loadBuilderConfig(), readPackageManifest()]);
    expect(publish).toMatchObject({ provider: 'github', owner: 'familiar-app', repo: 'familiar' });
    expect(homepage).toBe('https://github.com/familiar-app/familiar');
  });

  it('makes the .deb depend on what confines commands, and install an AppArmor profile that lets it run', async () => {
    const { deb } = await loadBuilderConfig();
    // Our list replaces electron-builder's own: every library Electron needs must still be in it.
    const electronDepends = (
      FpmTarget.prototype as unknown as { getDefaultDepends(target: string): string[] }
    ).getDefaultDepends('deb');
    expect(deb?.depends).toEqual([...electronDepends, 'bubblewrap', 'socat']);
    // electron-builder's after-install script (kept: no afterInstall of ours) copies the profile from
    // resources/apparmor-profile into /etc/apparmor.d and loads it.
    expect(deb?.afterInstall).toBeUndefined();
    const defaultScript = await readFile(
      join(projectRoot, 'node_modules', 'app-builder-lib', 'templates', 'linux', 'after-install.tpl'),
      'utf8',
    );
    expect(defaultScript).toContain(
      "APPARMOR_PROFILE_SOURCE='/opt/${sanitizedProductName}/resources/apparmor-profile'",
    );
    expect(defaultScript).toContain('apparmor_parser --replace');
    const profile = await readFile(join(projectRoot, deb?.appArmorProfile ?? 'missing'), 'utf8');
    const rules = profile.replace(/#.*$/gm, '');
    expect(rules).toMatch(
      /profile "\$\{executable\}" "\/opt\/\$\{sanitizedProductName\}\/\$\{executable\}" flags=\(unconfined\) \{[^}]*\buserns,/,
    );
  });

  it('points every platform at an icon that exists in build/', async () => {
    const config = await loadBuilderConfig();
    const resources = join(projectRoot, config.directories?.buildResources ?? 'build');
    for (const icon of [config.mac?.icon, config.win?.icon, config.linux?.icon]) {
      expect(icon, 'icon configured').toBeTypeOf('string');
      expect(existsSync(join(resources, icon as string)), `${icon} exists`).toBe(true);
    }
  });
});

describe('package.json metadata installers need', () => {
  it('has a description, license, homepage and an author with an email (deb refuses to build without)', async () => {
    const manifest = await readPackageManifest();
    expect(manifest.description).toMatch(/^.{20,}$/);
    expect(manifest.license).toBe('MIT');
    expect(manifest.homepage).toMatch(/^https:\/\//);
    const author = typeof manifest.author === 'object' ? manifest.author : {};
    expect(author.name).toMatch(/\w/);
    expect(author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(manifest.main).toBe('out/main/index.js');
  });

  it('uses the app-builder-lib electron-builder itself runs (the validator above is the real one)', async () => {
    const builder = JSON.parse(
      await readFile(join(projectRoot, 'node_modules', 'electron-builder', 'package.json'), 'utf8'),
    ) as { dependencies: Record<string, string> };
    const lib = JSON.parse(
      await readFile(join(projectRoot, 'node_modules', 'app-builder-lib', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(lib.version).toBe(builder.dependencies['app-builder-lib']);
  });
});
