import { FileVerdict } from '../domain/search/ngram/ngram-index';
import type { NgramStatus, StaleEntry } from '../domain/search/ngram/ngram-service';
import { literalPlan, regexPlan } from '../domain/search/ngram/trigram-plan';
import type { SearchSpec } from '../platform/sandbox/search-types';
import type { WalkEntry } from '../platform/sandbox/workspace-walker';
import type { ToolEnvironment } from './tool-environment';

/** Candidates above this share of the indexed files: ripgrep (when on PATH) confirms them faster. */
const RIPGREP_SHARE = 0.1;

/** What search_in_code does with one walked file when the trigram index answers. */
export type IndexedChoice = 'search' | 'skip' | 'binary';

export interface IndexedWalk {
  choose(entry: WalkEntry): IndexedChoice;
  /** Many candidates: confirm them with ripgrep rather than the JS engine. */
  readonly broad: boolean;
  /** After the walk: files found changed or new are indexed again in the background. */
  finish(): void;
}

/**
 * The trigram index's part in a search_in_code call (issue 16 item 4): when the index is on and
 * ready, a selector over the walked files (the walk stays: it applies the path, file_pattern,
 * .gitignore, hidden files, the deny-list and concealment exactly as a scan does). Each file's
 * size and ctime are checked against the index: a file changed since (by anyone, reported or not)
 * is searched, so the answer equals a full scan's. `status` says what the index is doing.
 */
export function indexedWalk(
  env: ToolEnvironment,
  query: { readonly text: string; readonly isRegex: boolean; readonly caseSensitive: boolean },
  spec: SearchSpec,
  includeIgnored: boolean,
): { walk?: IndexedWalk; status?: NgramStatus } {
  if (env.ngramIndexes === undefined || env.searchIndexEnabled?.() === false) return {};
  const ngram = env.ngramIndexes.for(env.workspaceRoot);
  const index = ngram.ready(env.sandbox);
  // Ignored files are not indexed: include_ignored searches scan.
  if (index === undefined || includeIgnored) return { status: ngram.status() };
  const plan = query.isRegex ? regexPlan(spec.pattern, spec.flags) : literalPlan(query.text, query.caseSensitive);
  const select = index.selector(plan);
  const stale: StaleEntry[] = [];
  return {
    status: ngram.status(),
    walk: {
      broad: select.share > RIPGREP_SHARE,
      choose(entry) {
        // The persona overlay's files are never indexed; a file gone meanwhile is the matcher's to skip.
        if (entry.inPersona || entry.facts === undefined) return 'search';
        const verdict = select(entry.relPath, entry.facts.size, entry.facts.ctimeMs);
        if (verdict === FileVerdict.Stale) stale.push(entry);
        return verdict === FileVerdict.Skip ? 'skip' : verdict === FileVerdict.Binary ? 'binary' : 'search';
      },
      finish: () => ngram.reindex(env.sandbox, stale),
    },
  };
}
