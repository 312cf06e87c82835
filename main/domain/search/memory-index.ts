import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { linesIfUnchanged, readIndexable, sameIdentity } from './indexed-file';
import { withSnippets } from './snippets';
import type { SearchHit } from './snippets';
import { TextIndex } from './text-index';

/** file is persona-relative: MEMORY.md, USER.md or memory/YYYY-MM-DD.md. */
export type MemoryHit = SearchHit;

const DAILY_NOTE = /^memory\/(\d{4})-(\d{2})-(\d{2})\.md$/;
const HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;
const SNIPPET_CHARS = 700;
/** Memory files are prose a person wrote; anything bigger is not read into the index. */
const MAX_MEMORY_FILE_BYTES = 4 * 1024 * 1024;

/** Dated notes fade with a 30-day half-life; MEMORY.md and USER.md are timeless. */
export function recencyWeight(file: string, now: Date): number {
  const match = DAILY_NOTE.exec(file);
  if (match === null) return 1;
  const date = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const ageDays = Math.max(0, (now.getTime() - date) / DAY_MS);
  return 0.5 ** (ageDays / HALF_LIFE_DAYS);
}

/**
 * memory_search's engine: the local full-text index over USER.md, MEMORY.md and memory/*.md,
 * refreshed from file identities on each search (these files are small and few). Every byte comes
 * through the sandbox (the persona folder is one of its roots): a symlink planted in memory/ is
 * never followed, and a hit is shown only if its file is still the one indexed.
 */
export class MemoryIndex {
  private readonly index = new TextIndex({ targetTokens: 400, overlapTokens: 80 });

  private async files(
    sandbox: WorkspaceSandbox,
  ): Promise<{ file: string; facts: Parameters<typeof sameIdentity>[1] }[]> {
    const found: { file: string; facts: Parameters<typeof sameIdentity>[1] }[] = [];
    for (const file of ['MEMORY.md', 'USER.md']) {
      const resolved = await sandbox.resolve(file, 'read', { followFinal: false });
      if (resolved.ok && resolved.value.facts?.kind === 'file') found.push({ file, facts: resolved.value.facts });
    }
    const folder = await sandbox.resolve('memory', 'read', { followFinal: false });
    if (folder.ok && folder.value.facts?.kind === 'directory') {
      const listed = sandbox.listDir(folder.value, true);
      for (const entry of listed.ok ? listed.value : []) {
        if (entry.kind === 'file' && entry.name.endsWith('.md') && entry.facts !== undefined) {
          found.push({ file: `memory/${entry.name}`, facts: entry.facts });
        }
      }
    }
    return found;
  }

  private async refresh(sandbox: WorkspaceSandbox): Promise<void> {
    const present = new Set<string>();
    for (const { file, facts } of await this.files(sandbox)) {
      if (sameIdentity(this.index.versionOf(file), facts)) {
        present.add(file);
        continue;
      }
      const read = await readIndexable(sandbox, file, MAX_MEMORY_FILE_BYTES);
      if (read === undefined) continue;
      present.add(file);
      this.index.setDocument(file, read.text, read.version);
    }
    for (const file of [...this.index.paths()]) if (!present.has(file)) this.index.removeDocument(file);
  }

  async search(sandbox: WorkspaceSandbox, query: string, maxResults: number, now: Date): Promise<MemoryHit[]> {
    await this.refresh(sandbox);
    const hits = this.index.search(query, { limit: maxResults, weight: (file) => recencyWeight(file, now) });
    return withSnippets(
      hits,
      async (path) => {
        const version = this.index.versionOf(path);
        return version === undefined ? undefined : linesIfUnchanged(sandbox, path, version, MAX_MEMORY_FILE_BYTES);
      },
      SNIPPET_CHARS,
    );
  }
}
