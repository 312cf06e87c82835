import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { LanguageClient } from './language-client';
import type { LspService } from './lsp-service';
import { readWorkspaceText } from './workspace-text';

export interface OpenedDocument {
  readonly client: LanguageClient;
  /** Workspace-relative, as the sandbox normalized it. */
  readonly relPath: string;
  readonly display: string;
  readonly uri: string;
  readonly text: string;
  /** Diagnostics generation before the sync (LanguageClient.waitForDiagnostics). */
  readonly mark: number;
  readonly changed: boolean;
}

/** Open documents re-read before each query at most: a project with more open is refreshed lazily. */
const maxRefreshed = 64;

/**
 * Brings the server's copy of every document it holds up to date with the disk (read through the
 * sandbox): an edit by the user or a command since the last call is seen before the server answers.
 * A document that is gone or now refused is closed.
 */
async function refreshOpenDocuments(client: LanguageClient, sandbox: WorkspaceSandbox, except: string): Promise<void> {
  const open = client
    .openPaths()
    .filter((relPath) => relPath !== except)
    .slice(0, maxRefreshed);
  await Promise.all(
    open.map(async (relPath) => {
      const read = await readWorkspaceText(sandbox, relPath);
      if (read.ok) await client.sync(relPath, read.value.text);
      else client.close(relPath);
    }),
  );
}

/** A workspace file shown to its language server, with the text the server now has. */
export async function openDocument(
  lsp: LspService,
  sandbox: WorkspaceSandbox,
  raw: string,
): Promise<Result<OpenedDocument>> {
  const read = await readWorkspaceText(sandbox, raw);
  if (!read.ok) return read;
  const { path, text } = read.value;
  if (path.inPersona) return err('language_server_unavailable', `'${path.display}' is a persona file, not code.`);
  const client = await lsp.clientFor(sandbox, path.relPath);
  if (!client.ok) return client;
  await refreshOpenDocuments(client.value, sandbox, path.relPath);
  const synced = await client.value.sync(path.relPath, text);
  if (!synced.ok) return synced;
  return ok({
    client: client.value,
    relPath: path.relPath,
    display: path.display,
    uri: synced.value.uri,
    text,
    mark: synced.value.mark,
    changed: synced.value.changed,
  });
}

/** Files a workspace-wide question looks at: code files the available servers cover, in walk order. */
export async function codeFilesOf(
  lsp: LspService,
  sandbox: WorkspaceSandbox,
  max: number,
  signal?: AbortSignal,
): Promise<Result<{ files: string[]; truncated: boolean }>> {
  const root = await sandbox.resolve('.', 'read');
  if (!root.ok) return root;
  const extensions = new Set(lsp.availableServers().flatMap((server) => server.extensions));
  const files: string[] = [];
  let truncated = false;
  const walked = await sandbox.walk(root.value, {
    recursive: true,
    includeHidden: false,
    signal,
    visit: (entry) => {
      if (entry.inPersona) return entry.kind === 'directory' ? 'skip' : 'continue';
      if (entry.kind !== 'file') return 'continue';
      const dot = entry.name.lastIndexOf('.');
      if (dot <= 0 || !extensions.has(entry.name.slice(dot).toLowerCase()) || entry.name.endsWith('.d.ts')) {
        return 'continue';
      }
      if (files.length === max) {
        truncated = true;
        return 'stop';
      }
      files.push(entry.relPath);
      return 'continue';
    },
  });
  if (!walked.ok) return walked;
  return ok({ files, truncated });
}

/**
 * tsserver answers workspace/symbol only inside a project, and a project exists once a file of it
 * is open: open the first code file of the server's language when nothing is open yet.
 */
export async function ensureSomeDocumentOpen(
  lsp: LspService,
  sandbox: WorkspaceSandbox,
  client: LanguageClient | undefined,
  signal?: AbortSignal,
): Promise<Result<LanguageClient>> {
  if (client !== undefined && client.openPaths().length > 0) return ok(client);
  const found = await codeFilesOf(lsp, sandbox, 1, signal);
  if (!found.ok) return found;
  const first = found.value.files[0];
  if (first === undefined) {
    return err('language_server_unavailable', 'The workspace has no code files a language server covers.');
  }
  const opened = await openDocument(lsp, sandbox, first);
  return opened.ok ? ok(opened.value.client) : opened;
}
