import { describe, expect, it } from 'vitest';
import { loadBuilderConfig } from '../packaging/builder-config';
import { signingPlan, unsignedName } from './signing-plan';
import type { ArtifactNames } from './signing-plan';

const names: ArtifactNames = {
  mac: '${productName}-${version}-mac-${arch}.${ext}',
  nsis: '${productName}-Setup-${version}.${ext}',
  portable: '${productName}-${version}-portable.${ext}',
};
const macSecrets = {
  CSC_LINK: 'MIIK...base64',
  CSC_KEY_PASSWORD: 'p12 password',
  APPLE_ID: 'dev@familiar.app',
  APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh-ijkl-mnop',
  APPLE_TEAM_ID: 'ABCDE12345',
};
const winSecrets = { WIN_CSC_LINK: 'MIIK...pfx', WIN_CSC_KEY_PASSWORD: 'pfx password' };
// What a workflow's env looks like when the repository has no secrets: every name, empty.
const noSecrets = Object.fromEntries(Object.keys({ ...macSecrets, ...winSecrets }).map((name) => [name, '']));

describe('the signing plan', () => {
  it('signs and notarizes macOS when every secret is there, and tells the app', () => {
    const plan = signingPlan('mac', { PATH: '/usr/bin', ...macSecrets }, names);
    expect(plan).toMatchObject({ ok: true, value: { signed: true, notarized: true, config: {} } });
    expect(plan.ok && plan.value.env).toMatchObject({ ...macSecrets, PATH: '/usr/bin', FAMILIAR_SIGNED: 'true' });
  });

  it('builds ad-hoc signed, -unsigned macOS apps without secrets, and tells the app', () => {
    const plan = signingPlan('mac', { PATH: '/usr/bin', ...noSecrets }, names);
    expect(plan).toMatchObject({
      ok: true,
      value: {
        signed: false,
        config: {
          mac: {
            identity: '-',
            notarize: false,
            artifactName: '${productName}-${version}-mac-${arch}-unsigned.${ext}',
          },
        },
      },
    });
    // Empty secrets never reach electron-builder: an empty CSC_LINK is not "no certificate" to every tool.
    expect(plan.ok && plan.value.env).toEqual({ PATH: '/usr/bin', FAMILIAR_SIGNED: 'false' });
  });

  it('stops on half a set of secrets, naming what is missing', () => {
    expect(signingPlan('mac', { ...noSecrets, CSC_LINK: 'x' }, names)).toMatchObject({
      ok: false,
      error: { message: 'macOS signing needs CSC_LINK, CSC_KEY_PASSWORD; missing: CSC_KEY_PASSWORD.' },
    });
    const { APPLE_ID: _dropped, ...noAppleId } = macSecrets;
    expect(signingPlan('mac', noAppleId, names)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('missing: APPLE_ID') as string },
    });
    expect(signingPlan('win', { WIN_CSC_KEY_PASSWORD: 'x' }, names)).toMatchObject({ ok: false });
  });

  it('refuses a signed macOS app without notarization (Gatekeeper would still block it), and the reverse', () => {
    const { CSC_LINK, CSC_KEY_PASSWORD } = macSecrets;
    expect(signingPlan('mac', { CSC_LINK, CSC_KEY_PASSWORD }, names)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('or neither') as string },
    });
    const { APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID } = macSecrets;
    expect(signingPlan('mac', { APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID }, names).ok).toBe(false);
  });

  it('signs Windows with its own certificate, or names the installers -unsigned', () => {
    expect(signingPlan('win', winSecrets, names)).toMatchObject({ ok: true, value: { signed: true, config: {} } });
    expect(signingPlan('win', noSecrets, names)).toMatchObject({
      ok: true,
      value: {
        signed: false,
        config: {
          nsis: { artifactName: '${productName}-Setup-${version}-unsigned.${ext}' },
          portable: { artifactName: '${productName}-${version}-portable-unsigned.${ext}' },
        },
        env: { FAMILIAR_SIGNED: 'false' },
      },
    });
  });

  it("hands each platform's build only its own secrets", () => {
    const everything = { PATH: '/bin', ...macSecrets, ...winSecrets };
    const win = signingPlan('win', everything, names);
    expect(win.ok && Object.keys(win.value.env).sort()).toEqual([
      'FAMILIAR_SIGNED',
      'PATH',
      'WIN_CSC_KEY_PASSWORD',
      'WIN_CSC_LINK',
    ]);
    const mac = signingPlan('mac', everything, names);
    expect(mac.ok && Object.keys(mac.value.env)).not.toContain('WIN_CSC_LINK');
    const linux = signingPlan('linux', everything, names);
    expect(linux.ok && Object.keys(linux.value.env).sort()).toEqual(['FAMILIAR_SIGNED', 'PATH']);
  });

  it('never signs Linux packages', () => {
    expect(signingPlan('linux', macSecrets, names)).toMatchObject({
      ok: true,
      value: { signed: false, config: {}, env: { FAMILIAR_SIGNED: 'false' } },
    });
  });

  it("gives overrides that electron-builder merges into this repository's config and its validator accepts", async () => {
    const config = await loadBuilderConfig();
    const repoNames: ArtifactNames = {
      mac: config.mac?.artifactName ?? '',
      nsis: config.nsis?.artifactName ?? '',
      portable: config.portable?.artifactName ?? '',
    };
    const unsigned = (platform: 'mac' | 'win') => {
      const plan = signingPlan(platform, {}, repoNames);
      if (!plan.ok) throw new Error(plan.error.message);
      return loadBuilderConfig(undefined, plan.value.config);
    };
    const mac = await unsigned('mac');
    expect(mac.mac).toMatchObject({
      identity: '-',
      artifactName: '${productName}-${version}-mac-${arch}-unsigned.${ext}',
    });
    expect(mac.mac?.target).toEqual(config.mac?.target); // merged, not replaced
    const win = await unsigned('win');
    expect(win.nsis).toMatchObject({ oneClick: true, artifactName: '${productName}-Setup-${version}-unsigned.${ext}' });
  });

  it('inserts -unsigned before the extension, and only there', () => {
    expect(unsignedName('${productName}-${version}.${ext}')).toBe('${productName}-${version}-unsigned.${ext}');
    expect(() => unsignedName('${productName}.exe')).toThrow();
  });
});
