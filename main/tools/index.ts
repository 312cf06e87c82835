import type { AnyTool } from './define-tool';
import { createDirectoryTool } from './create-directory';
import { deleteFileTool } from './delete-file';
import { editFileTool } from './edit-file';
import { fileDownloadTool } from './file-download';
import { fileSemanticSearchTool } from './file-semantic-search';
import { fileUploadTool } from './file-upload';
import { getFileInfoTool } from './get-file-info';
import { gitCommitTool } from './git-commit';
import { gitDiffTool } from './git-diff';
import { gitStatusTool } from './git-status';
import { listFilesTool } from './list-files';
import { moveFileTool } from './move-file';
import { readFileTool } from './read-file';
import { runCommandTool } from './run-command';
import { searchInCodeTool } from './search-in-code';
import { writeFileTool } from './write-file';

/** The workspace file tools, in the order the model sees them. Nothing registers itself. */
export const fileTools: readonly AnyTool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listFilesTool,
  searchInCodeTool,
  getFileInfoTool,
  createDirectoryTool,
  moveFileTool,
  deleteFileTool,
  runCommandTool,
  gitStatusTool,
  gitDiffTool,
  gitCommitTool,
  fileUploadTool,
  fileDownloadTool,
  fileSemanticSearchTool,
];

export {
  createDirectoryTool,
  deleteFileTool,
  editFileTool,
  fileDownloadTool,
  fileSemanticSearchTool,
  fileUploadTool,
  getFileInfoTool,
  gitCommitTool,
  gitDiffTool,
  gitStatusTool,
  listFilesTool,
  moveFileTool,
  readFileTool,
  runCommandTool,
  searchInCodeTool,
  writeFileTool,
};
