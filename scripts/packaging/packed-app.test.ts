import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { listPackage, extractFile } from '@electron/asar';
import { getCurrentFuseWire } from '@electron/fuses';
import { FuseState } from '@electron/fuses/dist/constants';
import { Arch, Platform, build } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, readPackageManifest } from './builder-config';
import type { PackageManifest } from './builder-config';
import { writeStandInElectron } from './stand-in-electron';

interface LockedPackage {
  readonly name?: string;
  readonly version?: string;
  readonly dev?: boolean;
}

/** `name@version` of every package npm installed for production (package-lock marks the rest "dev"). */
function productionPackages(lock: Record<string, LockedPackage>): Set<string> {
  return new Set(
    Object.entries(lock)
      .filter(([path, entry]) => path !== '' && entry.dev !== true)
      .map(([path, entry]) => `${entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 13)}@${entry.version}`),
  );
}

/**
 * Packs the app for real with electron-builder (`--linux --dir`, this repository's electron-builder.yml)
 * into a temp dir: a copy of the repository's files, stand-in build output in out/, and a stand-in
 * Electron carrying a real fuse wire. What lands in app.asar is then exactly what users would get.
 */
describe('the packed app', () => {
  // One pack for all the tests below (it takes seconds), so its folders live until afterAll.
  const made: string[] = [];
  const tempDir = async (prefix: string) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
  afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

  let asarPath = '';
  let appDir = '';
  let executable = '';
  let manifest: PackageManifest;
  let production: Set<string>;

  beforeAll(async () => {
    const project = await tempDir('familiar-pack-project-');
    const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: projectRoot,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((path) => path !== '' && !path.startsWith('node_modules/'));
    for (const path of tracked) {
      await mkdir(dirname(join(project, path)), { recursive: true });
      await copyFile(join(projectRoot, path), join(project, path)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error; // deleted in the working tree but not yet in git
      });
    }
    // 'junction' so Windows needs no symlink privilege; other systems ignore the type.
    await symlink(join(projectRoot, 'node_modules'), join(project, 'node_modules'), 'junction');
    const stubs: Record<string, string> = {
      'out/main/index.js': 'export {};\n',
      'out/main/index.js.map': '{}\n',
      'out/main/chunks/core.js': 'export {};\n',
      'out/preload/index.cjs': '"use strict";\n',
      'out/renderer/index.html': '<!doctype html><title>Familiar</title>\n',
      'out/renderer/assets/index.js': 'export {};\n',
      // What a developer's checkout also holds: none of it may ship.
      'test-results/last-run.json': '{}\n',
      'dist/old-build.txt': 'old\n',
      '.env': 'OPENAI_API_KEY=sk-not-a-real-key\n',
      // What scripts/ripgrep/fetch-ripgrep.ts leaves for the release (a stand-in binary), and another
      // platform's, which this Linux x64 pack must not take.
      'vendor/ripgrep/linux-x64/rg': '#!/bin/sh\necho stand-in rg\n',
      'vendor/ripgrep/linux-x64/LICENSE-MIT': 'MIT\n',
      'vendor/ripgrep/mac-arm64/rg': 'not this one\n',
    };
    for (const [path, text] of Object.entries(stubs)) {
      await mkdir(dirname(join(project, path)), { recursive: true });
      await writeFile(join(project, path), text);
    }

    const output = await tempDir('familiar-pack-output-');
    const electron = (await readPackageManifest(join(projectRoot, 'node_modules', 'electron'))).version;
    const electronDist = await writeStandInElectron(join(output, 'stand-in-electron'), electron);
    await build({
      projectDir: project,
      targets: Platform.LINUX.createTarget('dir', Arch.x64),
      publish: 'never',
      config: { electronDist, directories: { output: join(output, 'dist') } },
    });
    appDir = join(output, 'dist', 'linux-unpacked');
    asarPath = join(appDir, 'resources', 'app.asar');
    executable = join(appDir, 'familiar');
    manifest = await readPackageManifest();
    const lock = JSON.parse(await readFile(join(projectRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockedPackage>;
    };
    production = productionPackages(lock.packages);
  }, 180_000);

  const entries = () => listPackage(asarPath, { isPack: false }).map((entry) => entry.replaceAll('\\', '/'));
  /** Package folders (`node_modules/x`, `node_modules/@s/y/node_modules/z`), found by their package.json. */
  const packagesIn = (paths: string[]) =>
    paths.flatMap((path) => /^\/(.*node_modules\/(?:@[^/]+\/)?[^/@][^/]*)\/package\.json$/.exec(path)?.[1] ?? []);

  it('holds the built app and package.json, and nothing else of the repository', () => {
    const files = entries();
    for (const needed of [
      '/package.json',
      '/out/main/index.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
    ]) {
      expect(files).toContain(needed);
    }
    const stray = files.filter((path) => !/^\/(out|node_modules)(\/|$)/.test(path) && path !== '/package.json');
    expect(stray).toEqual([]);
    expect(files.filter((path) => path.endsWith('.map'))).toEqual([]);
  });

  it('carries no source, test, e2e, script or build-resource file', () => {
    const ours = entries().filter((path) => !path.includes('/node_modules/'));
    expect(ours.filter((path) => /\.(tsx?|mts)$|\.(test|spec)\./.test(path))).toEqual([]);
    for (const folder of ['main', 'shared', 'preload', 'renderer', 'e2e', 'scripts', 'build', 'bench', 'dist']) {
      expect(
        ours.filter((path) => path.startsWith(`/${folder}/`)),
        folder,
      ).toEqual([]);
    }
  });

  it('packs every runtime dependency and no dev-only package', () => {
    const packed = packagesIn(entries());
    const topLevel = new Set(packed.filter((path) => path.split('node_modules/').length === 2).map((path) => path));
    for (const name of Object.keys(manifest.dependencies ?? {}))
      expect(topLevel, name).toContain(`node_modules/${name}`);
    // electron-builder re-hoists what it packs, so compare by name and version, not by path.
    const devOnly = packed.filter((path) => {
      const { name, version } = JSON.parse(
        extractFile(asarPath, `${path}/package.json`).toString('utf8'),
      ) as LockedPackage;
      return !production.has(`${name}@${version}`);
    });
    expect(devOnly).toEqual([]);
    for (const name of [
      'react',
      'react-dom',
      'monaco-editor',
      'zustand',
      'electron',
      'vite',
      'vitest',
      '@playwright/test',
    ]) {
      expect(topLevel, name).not.toContain(`node_modules/${name}`);
    }
  });

  it('packs what PDF.js reads a PDF with, and not its browser builds or the canvas it renders with', () => {
    const files = entries();
    const pdfjs = '/node_modules/pdfjs-dist';
    for (const needed of [
      'legacy/build/pdf.mjs',
      'legacy/build/pdf.worker.mjs',
      'cmaps/UniJIS-UCS2-H.bcmap',
      'package.json',
    ])
      expect(files, needed).toContain(`${pdfjs}/${needed}`);
    expect(files.filter((path) => path.startsWith(`${pdfjs}/build/`) || path.startsWith(`${pdfjs}/web/`))).toEqual([]);
    expect(files.filter((path) => path.includes('/@napi-rs/canvas'))).toEqual([]);
  });

  it("leaves the dependencies' TypeScript sources, docs and readmes out, but keeps their licences", async () => {
    // For the record (the issue measured 32 MB, with the real out/, before these exclusions).
    console.info(`app.asar: ${((await stat(asarPath)).size / 1024 / 1024).toFixed(1)} MB`);
    const files = entries().filter((path) => path.includes('/node_modules/'));
    const deadWeight = files.filter(
      (path) =>
        /\.(ts|mts|cts|tsx|mdx)$/.test(path) ||
        /\/(README|CHANGELOG|HISTORY|CONTRIBUTING|SECURITY)\.md$/i.test(path) ||
        /\/(docs|doc|examples?|__tests__)\//.test(path),
    );
    expect(deadWeight.slice(0, 10)).toEqual([]);
    expect(files.some((path) => /\/LICEN[CS]E(\.md|\.txt)?$/i.test(path))).toBe(true);
  });

  it('ships the TypeScript language server outside app.asar, with the standard library tsserver checks against', async () => {
    // A plain `node` runs them (the runAsNode fuse is off) and cannot read inside an asar;
    // electron-builder drops *.d.ts from node_modules, so typescript comes whole as a resource.
    const servers = join(appDir, 'resources', 'language-servers');
    for (const file of [
      'typescript-language-server/lib/cli.mjs',
      'typescript/package.json',
      'typescript/lib/tsserver.js',
      'typescript/lib/_tsserver.js',
      'typescript/lib/typescript.js',
      'typescript/lib/lib.d.ts',
      'typescript/lib/lib.es2022.d.ts',
      'typescript/lib/lib.dom.d.ts',
    ]) {
      expect((await stat(join(servers, file))).size, file).toBeGreaterThan(0);
    }
    const libs = (await readdir(join(servers, 'typescript', 'lib'))).filter((name) => name.endsWith('.d.ts'));
    expect(libs.length).toBeGreaterThan(50);
  });

  it("ships this platform's ripgrep outside app.asar, where ripgrep-locate.ts looks first", async () => {
    const folder = join(appDir, 'resources', 'ripgrep');
    expect((await readdir(folder)).sort()).toEqual(['LICENSE-MIT', 'rg']);
    expect(await readFile(join(folder, 'rg'), 'utf8')).toContain('stand-in rg');
    expect(entries().filter((path) => path.includes('ripgrep/rg'))).toEqual([]);
  });

  it('ships package.json without scripts or devDependencies', () => {
    const packed = JSON.parse(extractFile(asarPath, 'package.json').toString('utf8')) as Record<string, unknown>;
    expect(packed).toMatchObject({ name: 'familiar', main: 'out/main/index.js', version: manifest.version });
    expect(packed['scripts']).toBeUndefined();
    expect(packed['devDependencies']).toBeUndefined();
  });

  it('keeps only the Chromium UI languages Familiar is translated into', async () => {
    expect((await readdir(join(appDir, 'locales'))).sort()).toEqual(['en-US.pak', 'ru.pak', 'zh-CN.pak', 'zh-TW.pak']);
  });

  it('flips the fuses in the Electron binary', async () => {
    const wire = await getCurrentFuseWire(executable);
    // Indices are FuseV1Options: RunAsNode, CookieEncryption, NODE_OPTIONS, --inspect, asar integrity, asar only.
    expect([wire[0], wire[1], wire[2], wire[3], wire[4], wire[5]]).toEqual([
      FuseState.DISABLE,
      FuseState.ENABLE,
      FuseState.DISABLE,
      FuseState.DISABLE,
      FuseState.ENABLE,
      FuseState.ENABLE,
    ]);
  });
});
