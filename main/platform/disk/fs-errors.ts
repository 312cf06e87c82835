import { err } from '../../../shared/result';
import type { Result } from '../../../shared/result';

/** Translates an operating-system error into a stable code and a message that says what to do. */
export function fsError<T = never>(error: unknown, display: string): Result<T> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return err('file_not_found', `'${display}' does not exist. Use list_files to see what is there.`);
    case 'EACCES':
    case 'EPERM':
      return err('permission_denied', `The operating system refused access to '${display}'.`);
    case 'ENOTDIR':
      return err('not_a_directory', `A part of '${display}' is a file, not a folder.`);
    case 'EISDIR':
      return err('not_a_file', `'${display}' is a folder; use list_files to see its content.`);
    case 'ELOOP':
      return err('invalid_path', `'${display}' changed into a symbolic link while it was being used; try again.`);
    case 'EINVAL':
      // readlink of a name that stopped being a symlink, and the like: it changed under us.
      return err('invalid_path', `'${display}' changed while it was being used; try again.`);
    case 'ENOTEMPTY':
      return err('directory_not_empty', `'${display}' is a folder that is not empty.`);
    case 'EEXIST':
      return err('destination_exists', `'${display}' already exists.`);
    case 'ENOSPC':
    case 'EDQUOT':
      return err('internal_error', `The disk is full: '${display}' was not changed.`);
    case 'ENAMETOOLONG':
      return err('invalid_path', `A name in '${display}' is too long for the file system.`);
    default:
      throw error;
  }
}
