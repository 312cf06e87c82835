import { readdirSync, readFileSync } from 'node:fs';

/**
 * The sandboxes waiting for a program: bwrap children of this process running the waiting shell,
 * once set up (the shell inside runs: bwrap, its inner bwrap, the shell). With `folder` (a real
 * path), only those that mount it from a descriptor (ripgrep's walk in that workspace).
 */
export function waitingSandboxes(folder?: string): number[] {
  const found: number[] = [];
  const childrenOf = (pid: number) =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (parent !== process.pid || !command.includes('exec "$@"')) continue;
      if (folder !== undefined && !command.includes(`\0--ro-bind-fd\u00003\0${folder}\0`)) continue;
      const shells = childrenOf(Number(name)).flatMap(childrenOf);
      if (shells.some((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sh')) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
