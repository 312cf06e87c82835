import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TextIndex } from './text-index';

export interface MemoryHit {
  /** Persona-relative: MEMORY.md, USER.md or memory/YYYY-MM-DD.md. */
  readonly file: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly heading: string | undefined;
  readonly score: number;
  readonly snippet: string;
}

const DAILY_NOTE = /^memory\/(\d{4})-(\d{2})-(\d{2})\.md$/;
const HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;
const SNIPPET_CHARS = 700;

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
 * refreshed from file modification times on each search (these files are small and few).
 */
export class MemoryIndex {
  private readonly index = new TextIndex({ targetTokens: 400, overlapTokens: 80 });

  constructor(private readonly personaDir: string) {}

  private async files(): Promise<string[]> {
    const daily = await readdir(join(this.personaDir, 'memory')).catch(() => [] as string[]);
    return ['MEMORY.md', 'USER.md', ...daily.filter((name) => name.endsWith('.md')).map((name) => `memory/${name}`)];
  }

  private async refresh(): Promise<void> {
    const present = new Set<string>();
    for (const file of await this.files()) {
      // lstat: a symlink planted in memory/ must not pull an outside file into the results.
      const info = await lstat(join(this.personaDir, file)).catch(() => null);
      if (info === null || !info.isFile()) continue;
      present.add(file);
      // mtime and size together: an edit within the same millisecond rarely keeps both.
      const version = info.mtimeMs * 1e3 + (info.size % 1000);
      if (this.index.versionOf(file) === version) continue;
      this.index.setDocument(file, await readFile(join(this.personaDir, file), 'utf8'), version);
    }
    for (const file of [...this.index.paths()]) if (!present.has(file)) this.index.removeDocument(file);
  }

  async search(query: string, maxResults: number, now: Date): Promise<MemoryHit[]> {
    await this.refresh();
    const hits = this.index.search(query, { limit: maxResults, weight: (file) => recencyWeight(file, now) });
    const texts = new Map<string, string[]>();
    return Promise.all(
      hits.map(async (hit) => {
        let lines = texts.get(hit.path);
        if (lines === undefined) {
          lines = (await readFile(join(this.personaDir, hit.path), 'utf8').catch(() => '')).split(/\r?\n/);
          texts.set(hit.path, lines);
        }
        const snippet = lines.slice(hit.startLine - 1, hit.endLine).join('\n');
        return {
          file: hit.path,
          startLine: hit.startLine,
          endLine: hit.endLine,
          heading: hit.heading,
          score: Math.round(hit.score * 1000) / 1000,
          snippet: snippet.length > SNIPPET_CHARS ? `${snippet.slice(0, SNIPPET_CHARS)}…` : snippet,
        };
      }),
    );
  }
}
