import type { Configuration } from 'app-builder-lib';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';

/**
 * How the release workflow signs each platform's installers, decided from the repository secrets it
 * was given (electron-builder's own variable names). All of a platform's secrets, or none: with
 * none the build still completes, its installers are named `-unsigned`, and the app is told
 * (FAMILIAR_SIGNED → main/front-doors/electron/build-info.ts) so its updater does not offer what cannot install.
 * Half a set is a mistake in the repository settings and stops the release.
 */

export type ReleasePlatform = 'linux' | 'mac' | 'win';

/** macOS: the Developer ID Application certificate (.p12, base64 or a URL) and its password. */
export const macSigningSecrets = ['CSC_LINK', 'CSC_KEY_PASSWORD'] as const;
/** macOS: notarization with an app-specific password (notarytool). */
export const macNotarizationSecrets = ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'] as const;
/** Windows: the code-signing certificate (.pfx) and its password. */
export const windowsSigningSecrets = ['WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD'] as const;

const allSecrets: readonly string[] = [...macSigningSecrets, ...macNotarizationSecrets, ...windowsSigningSecrets];

/** The artifact name patterns electron-builder.yml gives the signable installers. */
export interface ArtifactNames {
  readonly mac: string;
  readonly nsis: string;
  readonly portable: string;
}

export interface SigningPlan {
  readonly signed: boolean;
  readonly notarized: boolean;
  /** One line for the build log. */
  readonly summary: string;
  /** Merged over electron-builder.yml for this build. */
  readonly config: Configuration;
  /** The environment for electron-vite and electron-builder. */
  readonly env: Record<string, string>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** GitHub hands a workflow an empty string for a secret that was never set. */
const present = (env: Env, name: string) => (env[name] ?? '').trim() !== '';

/** `${productName}-Setup-${version}.${ext}` → `${productName}-Setup-${version}-unsigned.${ext}`. */
export function unsignedName(pattern: string): string {
  if (!pattern.endsWith('.${ext}')) throw new Error(`artifactName ${pattern} does not end in .\${ext}`);
  return `${pattern.slice(0, -'.${ext}'.length)}-unsigned.\${ext}`;
}

/** Which of a set of secrets are there: all, none, or some (an error naming the missing ones). */
function secretSet(env: Env, names: readonly string[], what: string): Result<boolean> {
  const missing = names.filter((name) => !present(env, name));
  if (missing.length === 0) return ok(true);
  if (missing.length === names.length) return ok(false);
  return err('invalid_arguments', `${what} needs ${names.join(', ')}; missing: ${missing.join(', ')}.`);
}

export function signingPlan(platform: ReleasePlatform, env: Env, names: ArtifactNames): Result<SigningPlan> {
  // Only this platform's secrets that are set reach the build: electron-builder never sees an empty
  // CSC_LINK, and never signs a Windows installer with the Mac certificate (it falls back to CSC_LINK
  // when WIN_CSC_LINK is unset).
  const own: readonly string[] =
    platform === 'mac'
      ? [...macSigningSecrets, ...macNotarizationSecrets]
      : platform === 'win'
        ? windowsSigningSecrets
        : [];
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (!allSecrets.includes(name) || (own.includes(name) && present(env, name)))) {
      clean[name] = value;
    }
  }
  const plan = (signed: boolean, notarized: boolean, summary: string, config: Configuration = {}) =>
    ok<SigningPlan>({ signed, notarized, summary, config, env: { ...clean, FAMILIAR_SIGNED: String(signed) } });

  if (platform === 'linux') {
    // AppImage and deb carry no signature the system checks; their SHA-256 sums are published instead.
    return plan(false, false, 'Linux packages are not code-signed (checksums are published with the release).');
  }
  if (platform === 'win') {
    const signing = secretSet(env, windowsSigningSecrets, 'Windows signing');
    if (!signing.ok) return signing;
    if (signing.value) return plan(true, false, 'Windows: signing with WIN_CSC_LINK.');
    return plan(false, false, 'Windows: no signing secrets, building unsigned installers (-unsigned).', {
      nsis: { artifactName: unsignedName(names.nsis) },
      portable: { artifactName: unsignedName(names.portable) },
    });
  }

  const signing = secretSet(env, macSigningSecrets, 'macOS signing');
  if (!signing.ok) return signing;
  const notarization = secretSet(env, macNotarizationSecrets, 'macOS notarization');
  if (!notarization.ok) return notarization;
  if (signing.value !== notarization.value) {
    // A signed app that is not notarized is still refused by Gatekeeper once downloaded, and
    // notarization needs a signed app: both or neither.
    return err(
      'invalid_arguments',
      `macOS needs both signing (${macSigningSecrets.join(', ')}) and notarization (${macNotarizationSecrets.join(', ')}), or neither.`,
    );
  }
  if (signing.value) return plan(true, true, 'macOS: signing with CSC_LINK and notarizing with APPLE_ID.');
  return plan(
    false,
    false,
    'macOS: no signing secrets, building ad-hoc signed apps (-unsigned): Apple silicon runs only signed code.',
    {
      // '-' is an ad-hoc signature: no identity, but a valid seal, which arm64 Macs require to run
      // anything. Hardened runtime stays on; electron-builder's default entitlements let an ad-hoc
      // app load its own frameworks (disable-library-validation).
      mac: { identity: '-', notarize: false, artifactName: unsignedName(names.mac) },
    },
  );
}
