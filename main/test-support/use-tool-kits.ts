import { afterEach } from 'vitest';
import { useTempDirs } from './temp-dir';
import { createToolKit } from './tool-kit';
import type { ToolKit, ToolKitOptions } from './tool-kit';
import { createToolCallsKit } from './tool-calls-kit';
import type { ToolCallsKit, ToolCallsKitOptions } from './tool-calls-kit';
import type { AnyTool } from '../tools/define-tool';

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

/**
 * The same for tools behind the real tool-call pipeline: `start` makes a ToolCallsKit disposed
 * after the test; `tempDir` makes more temporary folders removed after it (kits go first).
 */
export function useToolCallsKits(): {
  readonly tempDir: (prefix?: string) => Promise<string>;
  readonly start: (tools: readonly AnyTool[], options?: ToolCallsKitOptions) => Promise<ToolCallsKit>;
} {
  const tempDir = useTempDirs();
  const kits: ToolCallsKit[] = [];
  afterEach(async () => {
    await Promise.all(kits.splice(0).map((kit) => kit.kit.dispose()));
  });
  return {
    tempDir,
    start: async (tools, options) => {
      const kit = await createToolCallsKit(tempDir, tools, options);
      kits.push(kit);
      return kit;
    },
  };
}
