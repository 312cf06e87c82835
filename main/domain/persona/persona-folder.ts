import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { AnchorRoots } from '../../platform/disk/anchor-roots';
import { createDenyList } from '../../platform/disk/deny-list';
import { createWorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';

/** Persona files are prose for a prompt: far below this. */
const MAX_PERSONA_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The persona folder as Familiar itself reads and writes it (the prompt, history, the user's own
 * edits and reverts): the sandbox with the persona folder as its root, so these bytes take the same
 * anchored way to disk as the assistant's. No deny-list or concealment here: this is Familiar, not
 * the model, and the memory switch is applied where the prompt is built.
 */
export interface PersonaFolder {
  /** Absolute path, for the user to see where the files live. */
  readonly dir: string;
  /** A file's text ('' when it is missing: the prompt then simply lacks that part). */
  read(name: string): Promise<Result<string>>;
  exists(name: string): Promise<boolean>;
  /** Replaces a file atomically (mode 0644, as a user's own file). */
  write(name: string, text: string): Promise<Result<void>>;
  /** Creates a file only when nothing is there (never clobbers the user's text). */
  create(name: string, text: string): Promise<Result<void>>;
  makeDirectory(name: string): Promise<Result<void>>;
}

export function createPersonaFolder(roots: AnchorRoots, dir: string, familiarHome?: string): PersonaFolder {
  const sandbox: WorkspaceSandbox = createWorkspaceSandbox({
    workspaceRoot: dir,
    personaDir: dir,
    roots,
    ...(familiarHome === undefined ? {} : { protectedDirs: [familiarHome] }),
    isConcealed: () => false,
    denyList: createDenyList([]),
  });
  const tooLarge = (size: number) => err<never>('file_too_large', `A persona file of ${size} bytes is not read.`);
  return {
    dir,
    async read(name) {
      const resolved = await sandbox.resolve(name, 'read');
      if (!resolved.ok) return resolved;
      if (resolved.value.facts === undefined) return ok('');
      const read = await sandbox.readWholeFile(resolved.value, MAX_PERSONA_FILE_BYTES, tooLarge);
      return read.ok ? ok(read.value.bytes.toString('utf8').replace(/^\uFEFF/, '')) : read;
    },
    async exists(name) {
      const resolved = await sandbox.resolve(name, 'read');
      return resolved.ok && resolved.value.facts?.kind === 'file';
    },
    async write(name, text) {
      const resolved = await sandbox.resolve(name, 'write');
      if (!resolved.ok) return resolved;
      return sandbox.writeFileAtomic(resolved.value, Buffer.from(text, 'utf8'), {
        mode: resolved.value.facts?.mode ?? 0o100644,
      });
    },
    async create(name, text) {
      const resolved = await sandbox.resolve(name, 'write');
      if (!resolved.ok) return resolved;
      if (resolved.value.facts !== undefined) return ok(undefined);
      const created = sandbox.createNewFile(resolved.value, 0o644);
      if (!created.ok) return created.error.code === 'destination_exists' ? ok(undefined) : created;
      try {
        await created.value.writeAll(Buffer.from(text, 'utf8'));
        await created.value.sync();
        return ok(undefined);
      } finally {
        await created.value.close();
      }
    },
    async makeDirectory(name) {
      const resolved = await sandbox.resolve(name, 'write');
      if (!resolved.ok) return resolved;
      if (resolved.value.facts?.kind === 'directory') return ok(undefined);
      return sandbox.makeDirectories(resolved.value);
    },
  };
}
