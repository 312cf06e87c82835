import { describe, expect, it } from 'vitest';
import { checkDigest, parseTarget, releaseUrl, ripgrepAssets, vendorFolder } from './ripgrep-release';

/** The pinned ripgrep table the release fetches from (no network here: only what it would ask for). */
describe('the pinned ripgrep release', () => {
  it('has an asset and a sha256 for every platform the app is packed for', () => {
    for (const target of ['linux-x64', 'linux-arm64', 'mac-x64', 'mac-arm64', 'win-x64'] as const) {
      const found = ripgrepAssets[target];
      expect(found, target).toBeDefined();
      expect(found!.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(new Set(Object.values(ripgrepAssets).map((found) => found?.sha256)).size).toBe(6);
  });

  it('names the release asset, the folder inside it and the executable', () => {
    const win = parseTarget('win', 'x64');
    expect(win).toMatchObject({
      name: 'ripgrep-14.1.1-x86_64-pc-windows-msvc.zip',
      root: 'ripgrep-14.1.1-x86_64-pc-windows-msvc',
      executable: 'rg.exe',
    });
    const mac = parseTarget('mac', 'arm64');
    expect(typeof mac !== 'string' && releaseUrl(mac)).toBe(
      'https://github.com/BurntSushi/ripgrep/releases/download/14.1.1/ripgrep-14.1.1-aarch64-apple-darwin.tar.gz',
    );
    expect(parseTarget('linux', 'x64')).toMatchObject({
      name: 'ripgrep-14.1.1-x86_64-unknown-linux-musl.tar.gz',
      executable: 'rg',
    });
  });

  it('refuses unknown targets and a target with nothing packed', () => {
    expect(parseTarget('darwin', 'x64')).toMatch(/unknown platform/);
    expect(parseTarget('linux', 'ia32')).toMatch(/unknown architecture/);
    expect(parseTarget('win', 'arm64')).toMatch(/no ripgrep is packed/);
  });

  it('accepts only the pinned digest', () => {
    const found = ripgrepAssets['linux-x64']!;
    expect(checkDigest(found, found.sha256.toUpperCase())).toEqual({ ok: true });
    const wrong = checkDigest(found, '0'.repeat(64));
    expect(wrong.ok).toBe(false);
  });

  it('leaves each platform in the folder electron-builder.yml reads (${os}-${arch})', () => {
    expect(vendorFolder('/p', 'mac', 'arm64')).toBe('/p/vendor/ripgrep/mac-arm64');
  });
});
