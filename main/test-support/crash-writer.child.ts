import { readFile, realpath } from 'node:fs/promises';
import { familiarPaths } from '../platform/storage/paths';
import { createDirectRunner } from './direct-runner';
import { createToolEnvironment, createToolServices } from '../tools/kit/tool-services';
import { writeFileTool } from '../tools/write-file';

/**
 * The process the crash-safety test kills: it rewrites one big file with write_file, alternating
 * the contents of the given files, forever, and says "ready" after the first write. The test bundles
 * it for a plain node process with bundleChildScript (node 20 cannot run TypeScript itself).
 */
/** Its arguments: the workspace, the Familiar home, then the files whose contents it writes in turn. */
export async function writeForever([workspace = '', home = '', ...contentFiles]: readonly string[]): Promise<never> {
  const contents = await Promise.all(contentFiles.map((file) => readFile(file, 'utf8')));
  const services = createToolServices({ paths: familiarPaths(home), workerThreads: 1 });
  const env = await createToolEnvironment({ services, workspaceRoot: await realpath(workspace) });
  const runner = createDirectRunner();
  const ctx = { conversationId: 'crash', signal: new AbortController().signal, env };
  for (let i = 0; ; i += 1) {
    const result = await runner.run(
      writeFileTool,
      { path: 'big.txt', content: contents[i % contents.length]!, backup: false },
      ctx,
    );
    if (!result.ok) throw new Error(result.error.message);
    if (i === 0) process.stdout.write('ready\n');
  }
}
