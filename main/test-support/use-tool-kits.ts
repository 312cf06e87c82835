import { afterEach } from 'vitest';
import { useTempDirs } from './temp-dir';
import { createToolKit } from './tool-kit';
import type { ToolKit, ToolKitOptions } from './tool-kit';

/**
 * For a test file that runs tools alone: each call makes a kit over a fresh temporary folder, and
 * every kit a test made is disposed after it (before its folders are removed).
 */
export function useToolKits(): (options?: ToolKitOptions) => Promise<ToolKit> {
  const tempDir = useTempDirs();
  const kits: ToolKit[] = [];
  afterEach(async () => {
    for (const kit of kits.splice(0)) await kit.dispose();
  });
  return async (options) => {
    const kit = await createToolKit(tempDir, options);
    kits.push(kit);
    return kit;
  };
}
