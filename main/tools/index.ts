import type { AnyTool } from './define-tool';
import { codeDefinitionTool } from './code-definition';
import { codeDiagnosticsTool } from './code-diagnostics';
import { codeFormatTool } from './code-format';
import { codeHoverTool } from './code-hover';
import { codeReferencesTool } from './code-references';
import { codeRenameTool } from './code-rename';
import { codeSymbolsTool } from './code-symbols';
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
import { memoryAppendTool } from './memory-append';
import { memorySearchTool } from './memory-search';
import { moveFileTool } from './move-file';
import { readFileTool } from './read-file';
import { runCommandTool } from './run-command';
import { searchInCodeTool } from './search-in-code';
import { webFetchTool } from './web-fetch';
import { webSearchTool } from './web-search';
import { skillTool } from './skill';
import { writeFileTool } from './write-file';

/** Language-server tools (main/lsp): answered by the server for the file's language. */
export const codeTools: readonly AnyTool[] = [
  codeDiagnosticsTool,
  codeDefinitionTool,
  codeReferencesTool,
  codeHoverTool,
  codeSymbolsTool,
  codeRenameTool,
  codeFormatTool,
];

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
  ...codeTools,
];

/** Dedicated memory tools: the tool-call pipeline offers them only while memory is on for the conversation. */
export const memoryTools: readonly AnyTool[] = [memorySearchTool, memoryAppendTool];

/**
 * Tools that read beyond the workspace: web_fetch asks about each host (tool-calls/host-questions.ts);
 * web_search reaches only the service the user configured, and exists only while one is.
 */
export const webTools: readonly AnyTool[] = [webFetchTool, webSearchTool];

/** Everything the assistant may be offered (the core's tool list); skill only while a skill is loaded. */
export const assistantTools: readonly AnyTool[] = [...fileTools, ...webTools, ...memoryTools, skillTool];

export {
  codeDefinitionTool,
  codeDiagnosticsTool,
  codeFormatTool,
  codeHoverTool,
  codeReferencesTool,
  codeRenameTool,
  codeSymbolsTool,
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
  memoryAppendTool,
  memorySearchTool,
  moveFileTool,
  readFileTool,
  runCommandTool,
  searchInCodeTool,
  webFetchTool,
  webSearchTool,
  skillTool,
  writeFileTool,
};
