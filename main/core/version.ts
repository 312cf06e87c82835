declare const __FAMILIAR_VERSION__: string;

/** Injected at build time from package.json (electron.vite.config.ts, vitest.config.ts). */
export const familiarVersion: string = __FAMILIAR_VERSION__;
