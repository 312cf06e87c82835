declare const __FAMILIAR_BUILD__: BuildInfo;

export interface BuildInfo {
  /**
   * The installers were code-signed for this platform. The release pipeline sets FAMILIAR_SIGNED
   * when the signing secrets were there (scripts/release/package-app.ts); an unsigned macOS app
   * cannot install updates (Squirrel.Mac checks the new app's signature against the running one).
   */
  readonly signed: boolean;
}

/** Injected at build time (electron.vite.config.ts; vitest.config.ts for tests). */
export const buildInfo: BuildInfo = __FAMILIAR_BUILD__;
