import type { IpcMainInvokeEvent } from 'electron';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createSenderCheck, guardWebContents, hardenSession, isSafeExternalUrl, isTrustedUrl } from './security';

const page = { url: 'file:///opt/Familiar/resources/app.asar/out/renderer/index.html' };

const frameEvent = (url: string, isMain = true) =>
  ({ senderFrame: { url, parent: isMain ? null : {} } }) as unknown as IpcMainInvokeEvent;

describe('sender checks', () => {
  it('trusts only the main frame of our own page', () => {
    const check = createSenderCheck(page);
    expect(check(frameEvent(`${page.url}#/chat`))).toBe(true);
    expect(check(frameEvent(page.url, false))).toBe(false);
    expect(check(frameEvent('file:///tmp/evil.html'))).toBe(false);
    expect(check(frameEvent('https://example.com/'))).toBe(false);
    expect(check({ senderFrame: null } as unknown as IpcMainInvokeEvent)).toBe(false);
  });

  it('compares dev-server pages by origin', () => {
    const dev = { url: 'http://localhost:5173' };
    expect(isTrustedUrl(dev, 'http://localhost:5173/index.html')).toBe(true);
    expect(isTrustedUrl(dev, 'http://localhost:5174/')).toBe(false);
    expect(isTrustedUrl(dev, 'not a url')).toBe(false);
  });
});

describe('external links', () => {
  it('opens only plain http(s) URLs', () => {
    expect(isSafeExternalUrl('https://github.com/familiar')).toBe(true);
    expect(isSafeExternalUrl('http://example.test/page')).toBe(true);
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://u:p@x.test',
      'http://user@x.test',
      'smb://host/share',
      'vscode://open?x',
      'not a url',
    ]) {
      expect(isSafeExternalUrl(url)).toBe(false);
    }
  });
});

describe('guardWebContents', () => {
  function setup() {
    type Listener = (
      event: { preventDefault: () => void; url?: string | undefined; isMainFrame?: boolean },
      url?: string,
    ) => void;
    const listeners = new Map<string, Listener>();
    let openHandler: ((details: { url: string }) => { action: string }) | undefined;
    const contents = {
      on: (name: string, listener: Listener) => {
        listeners.set(name, listener);
        return contents;
      },
      setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => {
        openHandler = handler;
      },
    };
    const openExternal = vi.fn();
    guardWebContents(contents as never, page, openExternal);
    return { listeners, openHandler: () => openHandler, openExternal };
  }

  it('blocks any frame navigating away from our page', () => {
    const { listeners } = setup();
    for (const [url, blocked] of [
      ['https://evil.example/frame', true],
      ['file:///home/user/.ssh/id_rsa', true],
      [`${page.url}#/settings`, false],
    ] as const) {
      const preventDefault = vi.fn();
      listeners.get('will-frame-navigate')?.({ preventDefault, url });
      expect(preventDefault.mock.calls.length, url).toBe(blocked ? 1 : 0);
    }
  });

  it('blocks navigation away from our page and all webviews, reading the URL from the event', () => {
    const { listeners } = setup();
    for (const [name, url, blocked] of [
      ['will-navigate', 'file:///etc/passwd', true],
      ['will-redirect', 'file:///etc/passwd', true],
      ['will-redirect', 'https://evil.example', true],
      ['will-navigate', page.url, false],
      ['will-attach-webview', undefined, true],
    ] as const) {
      const preventDefault = vi.fn();
      // The deprecated positional url says the opposite: only event.url may count.
      listeners.get(name)?.({ preventDefault, url, isMainFrame: true }, blocked ? page.url : 'file:///x');
      expect(preventDefault.mock.calls.length, `${name} ${url}`).toBe(blocked ? 1 : 0);
    }
  });

  it('hands a plain web link the page tried to follow to the system browser instead', () => {
    const { listeners, openExternal } = setup();
    for (const url of ['https://example.com/docs', 'http://example.com/', 'file:///etc/passwd']) {
      const preventDefault = vi.fn();
      listeners.get('will-navigate')?.({ preventDefault, url, isMainFrame: true });
      expect(preventDefault).toHaveBeenCalledTimes(1);
    }
    expect(openExternal.mock.calls).toEqual([['https://example.com/docs'], ['http://example.com/']]);
  });

  it('denies every new window, handing web links to the system browser', () => {
    const { openHandler, openExternal } = setup();
    expect(openHandler()?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(openHandler()?.({ url: 'http://example.com/plain' })).toEqual({ action: 'deny' });
    expect(openHandler()?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://example.com'], ['http://example.com/plain']]);
  });
});

describe('hardenSession', () => {
  it('denies every permission request and check', () => {
    let request: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    hardenSession({
      setPermissionRequestHandler: (handler: typeof request) => void (request = handler),
      setPermissionCheckHandler: (handler: typeof check) => void (check = handler),
    } as never);
    const callback = vi.fn();
    request?.({}, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(check?.()).toBe(false);
  });
});

describe('no remote module', () => {
  const root = join(import.meta.dirname, '..', '..', '..');

  async function* sources(dir: string): AsyncGenerator<string> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) yield* sources(path);
      else if (/\.(ts|tsx|cjs|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path;
    }
  }

  it('is neither a dependency nor enabled nor imported anywhere the app runs', async () => {
    const manifest = await readFile(join(root, 'package.json'), 'utf8');
    expect(manifest).not.toContain('@electron/remote');
    const offenders: string[] = [];
    for (const layer of ['main', 'preload', 'renderer', 'shared']) {
      for await (const file of sources(join(root, layer))) {
        if (/@electron\/remote|enableRemoteModule|webviewTag:\s*true/.test(await readFile(file, 'utf8')))
          offenders.push(file);
      }
    }
    expect(offenders).toEqual([]);
  });
});
