import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import {
  defaultWindowSize,
  loadWindowState,
  minimumWindowSize,
  rememberWindowState,
  restoreWindowPlacement,
  saveWindowState,
  windowStateFile,
} from './window-state';
import type { Rectangle, TrackedWindow, WindowState } from './window-state';

const laptop: Rectangle = { x: 0, y: 0, width: 1440, height: 875 }; // work area: menu bar and dock excluded
const monitorRight: Rectangle = { x: 1440, y: -200, width: 2560, height: 1415 };
const state = (bounds: Omit<WindowState, 'maximized'>, maximized = false): WindowState => ({ ...bounds, maximized });

describe('restoreWindowPlacement', () => {
  it('opens at the default size, centred, the first time', () => {
    expect(restoreWindowPlacement(undefined, [laptop], laptop)).toEqual({
      bounds: defaultWindowSize,
      maximized: false,
    });
  });

  it('shrinks the default size to a small screen, but never below the minimum', () => {
    const netbook = { x: 0, y: 0, width: 1024, height: 560 };
    expect(restoreWindowPlacement(undefined, [netbook], netbook).bounds).toEqual({ width: 1024, height: 560 });
    const tiny = { x: 0, y: 0, width: 640, height: 480 };
    expect(restoreWindowPlacement(undefined, [tiny], tiny).bounds).toEqual(minimumWindowSize);
  });

  it('restores bounds that are still on a display exactly', () => {
    const saved = state({ x: 1600, y: 0, width: 1200, height: 900 }, true);
    expect(restoreWindowPlacement(saved, [laptop, monitorRight], laptop)).toEqual({
      bounds: { x: 1600, y: 0, width: 1200, height: 900 },
      maximized: true,
    });
  });

  it('centres the window on the primary display when its monitor is gone', () => {
    const saved = state({ x: 1600, y: 0, width: 1200, height: 900 });
    expect(restoreWindowPlacement(saved, [laptop], laptop)).toEqual({
      bounds: { width: 1200, height: 875 },
      maximized: false,
    });
  });

  it('treats a window with only a sliver left on screen as lost', () => {
    const saved = state({ x: 1400, y: 100, width: 1000, height: 700 }); // 40 px visible on the laptop
    expect(restoreWindowPlacement(saved, [laptop], laptop).bounds).toEqual({ width: 1000, height: 700 });
  });

  it('pulls a window hanging off an edge back inside the work area', () => {
    const saved = state({ x: -300, y: 600, width: 1000, height: 700 });
    expect(restoreWindowPlacement(saved, [laptop], laptop).bounds).toEqual({ x: 0, y: 175, width: 1000, height: 700 });
  });

  it('shrinks a window larger than the display it is on (resolution lowered since)', () => {
    const saved = state({ x: 100, y: 50, width: 3000, height: 2000 });
    expect(restoreWindowPlacement(saved, [laptop], laptop).bounds).toEqual({ x: 0, y: 0, width: 1440, height: 875 });
  });

  it('picks the display showing most of the window when it straddles two', () => {
    const saved = state({ x: 1000, y: 100, width: 1200, height: 700 }); // 440 px on the laptop, 760 on the right
    expect(restoreWindowPlacement(saved, [laptop, monitorRight], laptop).bounds).toEqual({
      x: 1440,
      y: 100,
      width: 1200,
      height: 700,
    });
  });

  it('honours displays with negative coordinates', () => {
    const left = { x: -1920, y: 0, width: 1920, height: 1040 };
    const saved = state({ x: -1800, y: 40, width: 1000, height: 700 });
    expect(restoreWindowPlacement(saved, [laptop, left], laptop).bounds).toEqual({
      x: -1800,
      y: 40,
      width: 1000,
      height: 700,
    });
  });
});

describe('window state file', () => {
  const tempDir = useTempDirs();

  it('round-trips through the Familiar home, leaving no temp file behind', async () => {
    const home = await tempDir();
    const saved = state({ x: 10, y: 20, width: 1000, height: 700 }, true);
    saveWindowState(windowStateFile(home), saved);
    expect(loadWindowState(windowStateFile(home))).toEqual(saved);
    expect(await readdir(home)).toEqual(['window-state.json']);
  });

  it('is ignored when missing, corrupt or of the wrong shape', async () => {
    const home = await tempDir();
    const file = windowStateFile(home);
    expect(loadWindowState(file)).toBeUndefined();
    for (const text of ['{"x": 1', '{"x":1,"y":2,"width":-5,"height":9,"maximized":false}', '[]', '']) {
      await writeFile(file, text);
      expect(loadWindowState(file), text).toBeUndefined();
    }
  });

  it('is written when the window closes, with the normal bounds of a maximized window', async () => {
    const home = await tempDir();
    let onClose: (() => void) | undefined;
    const window: TrackedWindow = {
      on: (_event, listener) => (onClose = listener),
      getNormalBounds: () => ({ x: 12.4, y: 30, width: 1100.6, height: 760 }),
      isMaximized: () => true,
    };
    rememberWindowState(window, (saved) => saveWindowState(windowStateFile(home), saved));
    onClose?.();
    expect(JSON.parse(await readFile(join(home, 'window-state.json'), 'utf8'))).toEqual({
      x: 12,
      y: 30,
      width: 1101,
      height: 760,
      maximized: true,
    });
  });
});
