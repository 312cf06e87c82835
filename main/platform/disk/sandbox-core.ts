import type { AnchoredFs } from './anchored-fs';
import type { AnchorRoot, IsProtected } from './anchored-resolve';
import type { ResolvedPath } from './resolved-path';
import type { TempJournal } from './temp-files';

/** What the sandbox's operations share: the anchored lookups and the two roots. Internal to sandbox/. */
export interface SandboxCore {
  readonly anchored: AnchoredFs;
  readonly isProtected: IsProtected;
  readonly hardLinks: 'refuse' | 'allow';
  readonly tempJournal: TempJournal | undefined;
  /** The open folder is not the persona folder: the four persona names at the root live there. */
  readonly overlayActive: boolean;
  readonly isConcealed: (relPath: string) => boolean;
  /** The root a resolved path lives under; undefined when that folder does not exist. */
  rootOf(path: Pick<ResolvedPath, 'inPersona'>): AnchorRoot | undefined;
}
