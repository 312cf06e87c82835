import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { fingerprintOf, hashBytes, sameContent } from '../../platform/disk/fingerprint';
import { decodeText } from '../../platform/disk/text-codec';
import type { EntryFacts, ResolvedPath } from '../../platform/disk/workspace-sandbox';
import { LentBuffers } from './lent-buffers';
import { readsBackAs } from './read-back';
import type { Approval, ToolContext } from '../define-tool';
import { formatBytes } from '../../../shared/format-bytes';

/** The file as it is on disk right before a change: bytes only when small enough to hold. */
export interface CurrentFile {
  readonly facts: EntryFacts;
  readonly bytes: Buffer | undefined;
}

export interface CommitPlan<T> {
  /** The new content; several pieces are written in order without being joined first. */
  readonly bytes: Buffer | readonly Buffer[];
  readonly details: T;
}

export interface Committed<T> {
  readonly details: T;
  readonly created: boolean;
  readonly bytesWritten: number;
  readonly backupPath?: string;
}

export interface CommitOptions<T> {
  readonly backup: boolean;
  /** The encoding written, remembered so the next edit writes it the same way. */
  readonly encoding?: () => string | undefined;
  readonly approval?: Approval | undefined;
  /** How the dialog rendered the current file: must match approval.shownBefore. */
  readonly beforeText: (current: CurrentFile | undefined) => string;
  /** Computes the new bytes from the current file, inside the lock. */
  readonly produce: (current: CurrentFile | undefined) => Result<CommitPlan<T>>;
}

const changedSinceRead = (display: string) =>
  err<never>(
    'concurrent_modification',
    `'${display}' changed on disk since you last read it (probably the user edited it). Nothing was written. Read it again with read_file, then redo your change on the new content.`,
  );

/** Whether a change holds the file it replaces in memory: a regular file within the read cap. */
const heldWhole = (facts: EntryFacts | undefined, maxReadBytes: number): facts is EntryFacts =>
  facts?.kind === 'file' && facts.size <= maxReadBytes;

/**
 * Reads the file a change will replace (its bytes only when held whole); into `lent` (LentBuffers)
 * when it is given and big enough.
 */
async function readCurrent(
  ctx: ToolContext,
  path: ResolvedPath,
  lent?: Buffer,
): Promise<Result<CurrentFile | undefined>> {
  const { facts } = path;
  if (facts === undefined) return ok(undefined);
  if (facts.kind !== 'file') return err('not_a_file', `'${path.display}' is not a regular file.`);
  const max = ctx.env.limits.maxReadBytes;
  if (!heldWhole(facts, max)) return ok({ facts, bytes: undefined });
  const read = await ctx.env.sandbox.readWholeFile(path, max, () => err('file_too_large', ''), lent);
  if (!read.ok) return read;
  return ok({ facts: read.value.facts, bytes: read.value.bytes });
}

/** The buffers commits read the current file into: one per change under way, kept between changes. */
const currentFiles = new LentBuffers();

/**
 * Where a change preview starts: the tool's target (resolved and checked by the tool) and the file
 * there as it is now (undefined when the change creates it).
 */
export async function readTarget(
  ctx: ToolContext,
  target: Result<ResolvedPath>,
): Promise<Result<{ path: ResolvedPath; current: CurrentFile | undefined }>> {
  if (!target.ok) return target;
  const current = await readCurrent(ctx, target.value);
  return current.ok ? ok({ path: target.value, current: current.value }) : current;
}

/** The text a change dialog shows as "before": the decoded file, or '' for a new or non-text file. */
export function currentText(current: CurrentFile | undefined, encoding?: string): string {
  if (current?.bytes === undefined) return '';
  const decoded = decodeText(current.bytes, encoding);
  return decoded.ok ? decoded.value.text : '';
}

/**
 * Every file change goes through here, serialized per file: stale-file protection (the file must
 * be what this conversation last read, and what the approval dialog showed), an optional backup,
 * the atomic write with a last sandbox check before the rename, and a read-back that verifies the
 * bytes on disk are the bytes meant.
 */
export async function commitFile<T>(
  ctx: ToolContext,
  path: ResolvedPath,
  options: CommitOptions<T>,
): Promise<Result<Committed<T>>> {
  const { env } = ctx;
  return env.locks.withLock([path.key], async () => {
    const again = await env.sandbox.resolve(path.relPath, 'write');
    if (!again.ok) return again;
    if (again.value.key !== path.key) {
      return err(
        'concurrent_modification',
        `'${path.display}' was moved or relinked while being changed; nothing was written. Try again.`,
      );
    }
    // The bytes read are lent: valid until this function returns (pieces and backups are written by
    // then). A file too big to be read (readCurrent) borrows nothing.
    const { facts } = again.value;
    return heldWhole(facts, env.limits.maxReadBytes)
      ? currentFiles.lend(facts.size, (lent) => commitLocked(ctx, path, again.value, lent, options))
      : commitLocked(ctx, path, again.value, undefined, options);
  });
}

/** commitFile once it holds the file's lock: `again` is the path resolved anew, `lent` the buffer to read it into. */
async function commitLocked<T>(
  ctx: ToolContext,
  path: ResolvedPath,
  again: ResolvedPath,
  lent: Buffer | undefined,
  options: CommitOptions<T>,
): Promise<Result<Committed<T>>> {
  const { env } = ctx;
  const current = await readCurrent(ctx, again, lent);
  if (!current.ok) return current;

  const seen = env.readTracker.seen(ctx.conversationId, path.key);
  if (
    seen !== undefined &&
    (current.value === undefined || !sameContent(seen, current.value.facts, current.value.bytes))
  ) {
    return changedSinceRead(path.display);
  }
  if (
    options.approval?.shownBefore !== undefined &&
    options.approval.shownBefore !== options.beforeText(current.value)
  ) {
    return err(
      'concurrent_modification',
      `'${path.display}' changed after the user was shown the change; nothing was written. Read it again and propose the change anew.`,
    );
  }

  const plan = options.produce(current.value);
  if (!plan.ok) return plan;
  const { bytes } = plan.value;
  const pieces: readonly Buffer[] = Buffer.isBuffer(bytes) ? [bytes] : bytes;
  const size = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (size > env.limits.maxWriteBytes) {
    return err(
      'file_too_large',
      `The new content of '${path.display}' would be ${formatBytes(size)}; files are written up to ${formatBytes(env.limits.maxWriteBytes)}.`,
    );
  }

  // The backup is written (from the bytes just read, when held) while the new content is: both
  // syncs overlap, and the original is replaced only once the backup is whole (beforeCommit).
  const backup =
    options.backup && current.value !== undefined
      ? current.value.bytes === undefined
        ? env.backups.keepCopy(env.sandbox, again)
        : env.backups.keepBytes(env.sandbox, again, current.value.bytes)
      : undefined;
  const writing = env.sandbox.writeFileAtomic(again, pieces, {
    mode: current.value?.facts.mode,
    signal: ctx.signal,
    ...(backup === undefined
      ? {}
      : { beforeCommit: async () => backup.then((kept) => (kept.ok ? ok(undefined) : kept)) }),
  });
  // The hash of what is meant, for the next change's comparison: computed while the writes sync.
  const meant = hashBytes(pieces);
  const written = await writing;

  const kept = await backup;
  if (kept !== undefined && !kept.ok) return kept;
  if (!written.ok) return written;
  const backupPath = kept?.value;

  // Read back: what is on disk must be exactly what was meant.
  const check = await env.sandbox.resolve(path.relPath, 'read');
  const readBack = check.ok ? await env.sandbox.withOpenFile(check.value, (file) => readsBackAs(file, pieces)) : check;
  if (!readBack.ok || !readBack.value.same) {
    env.readTracker.forget(ctx.conversationId, path.key);
    return err(
      'concurrent_modification',
      `'${path.display}' did not read back as written: something else is writing it at the same time. Read it again before retrying.`,
    );
  }
  // The hash of what was meant, which the read back just matched: the next change compares with it.
  env.readTracker.remember(ctx.conversationId, path.key, {
    ...fingerprintOf(readBack.value.facts),
    hash: meant,
    ...encodingOf(options),
  });
  return ok({
    details: plan.value.details,
    created: current.value === undefined,
    bytesWritten: size,
    ...(backupPath === undefined ? {} : { backupPath }),
  });
}

function encodingOf<T>(options: CommitOptions<T>): { encoding?: string } {
  const encoding = options.encoding?.();
  return encoding === undefined ? {} : { encoding };
}
