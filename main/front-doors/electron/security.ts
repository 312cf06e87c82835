import type { IpcMainInvokeEvent, Session, WebContents } from 'electron';

/** The only page Familiar ever shows: its own built renderer (or the dev server while developing). */
export interface TrustedPage {
  /** file:// URL of out/renderer/index.html, or the dev server origin. */
  readonly url: string;
}

export function isTrustedUrl(page: TrustedPage, candidate: string): boolean {
  let actual: URL;
  let expected: URL;
  try {
    actual = new URL(candidate);
    expected = new URL(page.url);
  } catch {
    return false;
  }
  if (expected.protocol === 'file:') return actual.protocol === 'file:' && actual.pathname === expected.pathname;
  return actual.origin === expected.origin;
}

/** VS Code's rule: an IPC message counts only when it comes from our page's main frame. */
export function createSenderCheck(page: TrustedPage): (event: IpcMainInvokeEvent) => boolean {
  return (event) => {
    const frame = event.senderFrame;
    return frame !== null && frame.parent === null && isTrustedUrl(page, frame.url);
  };
}

/** The schemes a link may have to leave the app: web pages only (no file:, smb:, custom handlers). */
const externalSchemes: ReadonlySet<string> = new Set(['https:', 'http:']);

/** Links the model writes may be opened, but only plain web ones and only in the system browser. */
export function isSafeExternalUrl(candidate: string): boolean {
  try {
    const url = new URL(candidate);
    return externalSchemes.has(url.protocol) && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** Deny every permission (camera, notifications, geolocation...): Familiar needs none. */
export function hardenSession(
  target: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
): void {
  target.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  target.setPermissionCheckHandler(() => false);
}

/**
 * Every webContents Electron creates gets this (app 'web-contents-created'), so whatever the page
 * does, it can only ever show our own page: no navigation away (main frame or subframe), no new
 * windows (http(s) links go to the system browser instead), no webviews.
 */
export function guardWebContents(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  page: TrustedPage,
  openExternal: (url: string) => void,
): void {
  // event.url, not the positional url argument Electron deprecated. A plain link (no target) to
  // the web goes to the system browser instead of replacing Familiar's page.
  contents.on('will-navigate', (event) => {
    if (isTrustedUrl(page, event.url)) return;
    event.preventDefault();
    if (event.isMainFrame && isSafeExternalUrl(event.url)) openExternal(event.url);
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isTrustedUrl(page, event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isTrustedUrl(page, event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) openExternal(url);
    return { action: 'deny' };
  });
}
