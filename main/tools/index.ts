import type { AnyTool } from './define-tool';
import { createDirectoryTool } from './create-directory';
import { deleteFileTool } from './delete-file';
import { editFileTool } from './edit-file';
import { getFileInfoTool } from './get-file-info';
import { listFilesTool } from './list-files';
import { memoryAppendTool } from './memory-append';
import { memorySearchTool } from './memory-search';
import { moveFileTool } from './move-file';
import { readFileTool } from './read-file';
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
];

/** Dedicated memory tools: the registry offers them only while memory is on for the conversation. */
export const memoryTools: readonly AnyTool[] = [memorySearchTool, memoryAppendTool];

/** Everything the assistant may be offered (the core's tool list). */
export const assistantTools: readonly AnyTool[] = [...fileTools, ...memoryTools];

export {
  createDirectoryTool,
  deleteFileTool,
  editFileTool,
  getFileInfoTool,
  listFilesTool,
  memoryAppendTool,
  memorySearchTool,
  moveFileTool,
  readFileTool,
  searchInCodeTool,
  writeFileTool,
};
