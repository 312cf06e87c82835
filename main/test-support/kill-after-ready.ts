import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import { bundleChildScript } from './child-script';

/**
 * For the crash tests: starts a bundled child script, waits until it prints 'ready' (its first
 * completed unit of work), lets it run `ms` more, then SIGKILLs it and waits for it to be gone.
 */
export async function killAfterReady(script: string, args: readonly string[], ms: number): Promise<void> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${script} exited early (${code}): ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, ms));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * A child the test kills mid-work: `exportName` of `childFile` (in test-support/), bundled once
 * before the file's tests and called with the child's arguments. Answers the kill function.
 */
export function useKillableChild(
  childFile: string,
  exportName: string,
): (args: readonly string[], ms: number) => Promise<void> {
  let script = '';
  beforeAll(async () => {
    const file = JSON.stringify(join(import.meta.dirname, childFile));
    script = await bundleChildScript(
      `import { ${exportName} } from ${file};\nawait ${exportName}(process.argv.slice(2));\n`,
    );
  }, 60_000);
  return (args, ms) => killAfterReady(script, args, ms);
}
