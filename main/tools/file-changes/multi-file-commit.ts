import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { decodeText, sniffBom } from '../../platform/disk/text-codec';
import type { ResolvedPath } from '../../platform/disk/workspace-sandbox';
import type { ToolContext } from '../define-tool';
import { formatBytes } from '../../../shared/format-bytes';

/** One file of a multi-file change: the text it was planned against and the text to write. */
export interface PlannedFile {
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

export interface CommittedFile {
  readonly path: string;
  readonly backup_path?: string;
}

interface Held {
  readonly planned: PlannedFile;
  readonly path: ResolvedPath;
  readonly original: Buffer;
  readonly bom: boolean;
}

const changed = (display: string) =>
  err<never>(
    'concurrent_modification',
    `'${display}' changed on disk after the change was computed; no file was changed. Run the tool again.`,
  );

/**
 * A change to several files, all or none (a rename across a project): every file is locked,
 * checked to be exactly the text the change was computed from, backed up, then written
 * atomically one by one; if a write fails, the files already written get their old bytes back.
 * Persona files are never part of such a change: their own guard (approval, history) is per file.
 */
export async function commitFiles(ctx: ToolContext, files: readonly PlannedFile[]): Promise<Result<CommittedFile[]>> {
  const { env } = ctx;
  const resolved: ResolvedPath[] = [];
  for (const file of files) {
    const path = await env.sandbox.resolve(file.path, 'write');
    if (!path.ok) return path;
    if (path.value.inPersona) {
      return err(
        'permission_denied',
        `'${path.value.display}' is a persona file; change it on its own with edit_file.`,
      );
    }
    if (path.value.facts?.kind !== 'file')
      return err('file_not_found', `'${path.value.display}' is not a file any more.`);
    resolved.push(path.value);
  }
  return env.locks.withLock(
    resolved.map((path) => path.key),
    async () => {
      const held: Held[] = [];
      for (const [index, planned] of files.entries()) {
        const again = await env.sandbox.resolve(planned.path, 'write');
        if (!again.ok) return again;
        if (again.value.key !== resolved[index]?.key) return changed(again.value.display);
        const read = await env.sandbox.readWholeFile(again.value, env.limits.maxReadBytes, (size) =>
          err('file_too_large', `'${again.value.display}' is ${formatBytes(size)}; too large to change here.`),
        );
        if (!read.ok) return read;
        const decoded = decodeText(read.value.bytes, 'utf-8');
        if (!decoded.ok || decoded.value.text !== planned.before) return changed(again.value.display);
        held.push({
          planned,
          path: again.value,
          original: read.value.bytes,
          bom: sniffBom(read.value.bytes) !== undefined,
        });
      }
      const backups: (string | undefined)[] = [];
      for (const file of held) {
        const kept = await env.backups.keepCopy(env.sandbox, file.path);
        if (!kept.ok) return kept;
        backups.push(kept.value);
      }
      const written: Held[] = [];
      for (const file of held) {
        const body = Buffer.from(file.planned.after, 'utf8');
        const bytes = file.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
        const result = await env.sandbox.writeFileAtomic(file.path, bytes, { mode: file.path.facts?.mode });
        if (!result.ok) {
          // All or none: what was written already goes back to its old bytes.
          for (const done of written)
            await env.sandbox.writeFileAtomic(done.path, done.original, { mode: done.path.facts?.mode });
          return err(result.error.code, `${result.error.message} No file was changed (the others were restored).`);
        }
        written.push(file);
        // The conversation's last read of this file no longer describes it.
        env.readTracker.forget(ctx.conversationId, file.path.key);
      }
      return ok(
        held.map((file, index) => {
          const backup = backups[index];
          return { path: file.path.display, ...(backup === undefined ? {} : { backup_path: backup }) };
        }),
      );
    },
  );
}
