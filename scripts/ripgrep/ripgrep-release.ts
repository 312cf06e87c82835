// The ripgrep release the packaged app carries (electron-builder.yml: extraResources from
// vendor/ripgrep/<os>-<arch>), pinned by version and by the sha256 of each archive. The digests are
// those BurntSushi published beside the 14.1.1 assets (each asset's .sha256), as recorded by
// several independent projects that pin the same archives; a download that does not match is refused.
import { join } from 'node:path';

export const RIPGREP_VERSION = '14.1.1';

/** electron-builder's names: ${os} is linux, mac or win; ${arch} x64 or arm64. */
export type BuilderOs = 'linux' | 'mac' | 'win';
export type BuilderArch = 'x64' | 'arm64';

export interface RipgrepAsset {
  /** The release asset's file name. */
  readonly name: string;
  readonly sha256: string;
  readonly archive: 'tar.gz' | 'zip';
  /** The folder inside the archive that holds rg and its licences. */
  readonly root: string;
  /** The executable's name in that folder and in the package. */
  readonly executable: 'rg' | 'rg.exe';
}

const asset = (triple: string, sha256: string, archive: 'tar.gz' | 'zip'): RipgrepAsset => ({
  name: `ripgrep-${RIPGREP_VERSION}-${triple}.${archive}`,
  sha256,
  archive,
  root: `ripgrep-${RIPGREP_VERSION}-${triple}`,
  executable: archive === 'zip' ? 'rg.exe' : 'rg',
});

/** Linux x64 is the static musl build (runs on any glibc); arm64 has only a glibc build upstream. */
export const ripgrepAssets: Readonly<Record<`${BuilderOs}-${BuilderArch}`, RipgrepAsset | undefined>> = {
  'linux-x64': asset(
    'x86_64-unknown-linux-musl',
    '4cf9f2741e6c465ffdb7c26f38056a59e2a2544b51f7cc128ef28337eeae4d8e',
    'tar.gz',
  ),
  'linux-arm64': asset(
    'aarch64-unknown-linux-gnu',
    'c827481c4ff4ea10c9dc7a4022c8de5db34a5737cb74484d62eb94a95841ab2f',
    'tar.gz',
  ),
  'mac-x64': asset('x86_64-apple-darwin', 'fc87e78f7cb3fea12d69072e7ef3b21509754717b746368fd40d88963630e2b3', 'tar.gz'),
  'mac-arm64': asset(
    'aarch64-apple-darwin',
    '24ad76777745fbff131c8fbc466742b011f925bfa4fffa2ded6def23b5b937be',
    'tar.gz',
  ),
  'win-x64': asset('x86_64-pc-windows-msvc', 'd0f534024c42afd6cb4d38907c25cd2b249b79bbe6cc1dbee8e3e37c2b6e25a1', 'zip'),
  // No Windows arm64 build is packed (electron-builder.yml: win x64 only).
  'win-arm64': undefined,
};

export const releaseUrl = (found: RipgrepAsset): string =>
  `https://github.com/BurntSushi/ripgrep/releases/download/${RIPGREP_VERSION}/${found.name}`;

/** Where the release workflow leaves a platform's ripgrep for electron-builder to pick up. */
export const vendorFolder = (projectRoot: string, os: BuilderOs, arch: BuilderArch): string =>
  join(projectRoot, 'vendor', 'ripgrep', `${os}-${arch}`);

/** The licences shipped beside the binary (ripgrep is MIT or Unlicense, at the user's choice). */
export const licenceFiles = ['LICENSE-MIT', 'UNLICENSE', 'COPYING'] as const;

/** Whether `bytes`' sha256 (hex) is the pinned one: a mismatch is an archive that was not the published one. */
export function checkDigest(found: RipgrepAsset, actualSha256: string): { ok: true } | { ok: false; message: string } {
  return actualSha256.toLowerCase() === found.sha256
    ? { ok: true }
    : { ok: false, message: `${found.name}: sha256 ${actualSha256} is not the pinned ${found.sha256}` };
}

export function parseTarget(os: string | undefined, arch: string | undefined): RipgrepAsset | string {
  if (os !== 'linux' && os !== 'mac' && os !== 'win') return `unknown platform ${String(os)} (linux, mac or win)`;
  if (arch !== 'x64' && arch !== 'arm64') return `unknown architecture ${String(arch)} (x64 or arm64)`;
  return ripgrepAssets[`${os}-${arch}`] ?? `no ripgrep is packed for ${os}-${arch}`;
}
