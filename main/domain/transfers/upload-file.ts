import { DEFAULT_MAX_UPLOAD_BYTES } from '../../../shared/ipc/transfers';
import type { UploadResult } from '../../../shared/ipc/transfers';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { looksBinary, sniffBom, sniffBytes } from '../../platform/disk/text-codec';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { formatBytes } from '../../../shared/format-bytes';

/** Where uploads land, workspace-relative. */
export const UPLOADS_DIR = 'uploads';

export interface UploadLimits {
  readonly maxBytes: number;
  /** Off by default: only text (UTF-8, or UTF-16 with a BOM, no NUL bytes) is taken. */
  readonly allowNonText: boolean;
}

export const defaultUploadLimits: UploadLimits = { maxBytes: DEFAULT_MAX_UPLOAD_BYTES, allowNonText: false };

// Characters a shell or a command line gives meaning to: a name containing them is refused rather
// than quoted, so an uploaded file can never be a trap for a later run_command.
const SHELL_CHARACTERS = /[;&|`$<>*?!"'\\{}[\]#~]/u;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/** A plain file name: no folders, no control or shell characters, nothing a file system treats specially. */
export function validateUploadName(name: string): Result<string> {
  const refuse = (why: string) =>
    err<string>(
      'invalid_path',
      `'${name.slice(0, 100)}' cannot be an upload's name: ${why}. Rename the file and try again.`,
    );
  if (name.trim() === '' || name !== name.trim()) return refuse('it is empty or starts or ends with a space');
  if (name.includes('/') || name.includes('\\')) return refuse('it contains a path separator');
  if (name === '.' || name === '..' || name.endsWith('.')) return refuse('it is or ends with a dot');
  if (name.startsWith('-')) return refuse('it starts with "-" (it would read as a command option)');
  if (CONTROL.test(name)) return refuse('it contains control characters');
  if (SHELL_CHARACTERS.test(name))
    return refuse('it contains characters a shell treats specially (; & | $ ` < > * ? and the like)');
  if (WINDOWS_RESERVED.test(name)) return refuse('it is a reserved device name on Windows');
  if (Buffer.byteLength(name) > 255) return refuse('it is longer than 255 bytes');
  return ok(name.normalize('NFC'));
}

/** Text by content, not by extension: valid UTF-8 (or UTF-16 with a BOM) without NUL bytes. */
export function isText(bytes: Uint8Array): boolean {
  const bom = sniffBom(bytes);
  if (bom !== undefined && bom.encoding.startsWith('utf-16')) return true;
  if (looksBinary(bytes.subarray(0, sniffBytes), undefined)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Checks an upload before anything touches the disk. */
export function validateUpload(name: string, bytes: Uint8Array, limits: UploadLimits): Result<string> {
  const valid = validateUploadName(name);
  if (!valid.ok) return valid;
  if (bytes.length > limits.maxBytes) {
    return err(
      'file_too_large',
      `'${valid.value}' is ${formatBytes(bytes.length)}; uploads stop at ${formatBytes(limits.maxBytes)} (a setting).`,
      { size: bytes.length, limit: limits.maxBytes },
    );
  }
  if (!limits.allowNonText && !isText(bytes)) {
    return err(
      'binary_file',
      `'${valid.value}' is not a text file; uploads take text only unless "allow non-text uploads" is switched on in settings.`,
    );
  }
  return valid;
}

/** "report.txt" → "report (1).txt", "archive.tar.gz" → "archive (1).tar.gz", ".bashrc" → ".bashrc (1)". */
export function numberedName(name: string, n: number): string {
  const dot = name.indexOf('.', 1);
  return dot === -1 ? `${name} (${n})` : `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/**
 * Validates and copies an upload into uploads/, never overwriting: the name is taken as is when free,
 * else "name (1).ext", "name (2).ext"... The file is created exclusively ('wx'), so a file appearing
 * between the check and the write is not replaced either.
 */
export async function saveUpload(
  sandbox: WorkspaceSandbox,
  name: string,
  bytes: Uint8Array,
  limits: UploadLimits,
): Promise<Result<Omit<UploadResult, 'note'>>> {
  const valid = validateUpload(name, bytes, limits);
  if (!valid.ok) return valid;
  const dir = await sandbox.resolve(UPLOADS_DIR, 'write');
  if (!dir.ok) return dir;
  if (dir.value.facts === undefined) {
    const made = sandbox.makeDirectories(dir.value);
    if (!made.ok) return made;
  } else if (dir.value.facts.kind !== 'directory') {
    return err('not_a_directory', `'${UPLOADS_DIR}' exists and is not a folder; uploads go there.`);
  }
  for (let n = 0; n < 1000; n += 1) {
    const candidate = n === 0 ? valid.value : numberedName(valid.value, n);
    const target = await sandbox.resolve(`${UPLOADS_DIR}/${candidate}`, 'write');
    if (!target.ok) return target;
    if (target.value.facts !== undefined) continue;
    const created = sandbox.createNewFile(target.value, 0o644);
    if (!created.ok) {
      if (created.error.code === 'destination_exists') continue;
      return created;
    }
    const handle = created.value;
    try {
      await handle.writeAll(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return ok({ name: candidate, path: target.value.display, bytes: bytes.length });
  }
  return err('destination_exists', `Too many files named like '${valid.value}' in ${UPLOADS_DIR}/.`);
}

export const uploadNote = (result: Omit<UploadResult, 'note'>) =>
  `[The user uploaded '${result.name}' (${formatBytes(result.bytes)}); it is saved in the workspace as ${result.path}.]`;
