import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TrustedPage } from './security';

export interface AppFiles {
  readonly rendererIndex: string;
  readonly preload: string;
  /** The page the window shows: the only one IPC answers and navigation may stay on. */
  readonly page: TrustedPage;
}

/** Where the built renderer and preload sit beside out/main (electron.vite.config.ts), or the dev server. */
export function appFiles(devServer: string | undefined): AppFiles {
  const rendererIndex = fileURLToPath(new URL('../renderer/index.html', import.meta.url));
  return {
    rendererIndex,
    preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
    page: { url: devServer ?? pathToFileURL(rendererIndex).href },
  };
}
