import type { LspService } from './lsp-service';

/**
 * What code tools and the write tools reach through the ToolEnvironment: the app's language servers
 * and the switch for diagnostics after edits (read on each use: settings change while the app runs).
 */
export interface CodeIntelligence {
  readonly lsp: LspService;
  diagnosticsAfterEdits(): boolean;
}
