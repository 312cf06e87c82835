import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fileTools } from './index';

describe('fileTools', () => {
  it('lists the workspace tools once each, with the parameter names of issues 3 and 7', () => {
    const names = fileTools.map((tool) => tool.name);
    expect(names).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'list_files',
      'search_in_code',
      'get_file_info',
      'create_directory',
      'move_file',
      'delete_file',
      'run_command',
      'git_status',
      'git_diff',
      'git_commit',
      'file_upload',
      'file_download',
      'file_semantic_search',
      'code_diagnostics',
      'code_definition',
      'code_references',
      'code_hover',
      'code_symbols',
      'code_rename',
      'code_format',
    ]);
    // Exactly the code_* tools wait for a language server: the core offers them only with one.
    const needServer = fileTools.filter((tool) => tool.needsLanguageServer === true).map((tool) => tool.name);
    expect(needServer).toEqual(names.filter((name) => name.startsWith('code_')));
    const parameters = Object.fromEntries(
      fileTools.map((tool) => [tool.name, Object.keys((tool.input as z.ZodObject).shape)]),
    );
    expect(parameters).toEqual({
      read_file: ['path', 'encoding', 'start_line', 'end_line', 'start_page', 'end_page'],
      write_file: ['path', 'content', 'encoding', 'create_dirs', 'backup'],
      edit_file: ['path', 'oldText', 'newText'],
      list_files: ['path', 'recursive', 'pattern', 'include_hidden', 'include_ignored', 'sizes', 'max_entries'],
      search_in_code: [
        'query',
        'is_regex',
        'path',
        'file_pattern',
        'case_sensitive',
        'context_lines',
        'max_results',
        'include_ignored',
      ],
      get_file_info: ['path'],
      create_directory: ['path', 'parents'],
      move_file: ['source', 'destination', 'overwrite'],
      delete_file: ['path', 'recursive'],
      run_command: ['command', 'cwd', 'timeout', 'shell'],
      git_status: [],
      git_diff: ['path', 'staged'],
      git_commit: ['message', 'paths'],
      file_upload: ['name', 'content', 'encoding'],
      file_download: ['path'],
      file_semantic_search: ['query', 'top_k'],
      code_diagnostics: ['path'],
      code_definition: ['path', 'line', 'column', 'symbol'],
      code_references: ['path', 'line', 'column', 'symbol', 'include_declaration'],
      code_hover: ['path', 'line', 'column', 'symbol'],
      code_symbols: ['path', 'query'],
      code_rename: ['path', 'line', 'column', 'symbol', 'new_name'],
      code_format: ['path'],
    });
  });

  it('declares the accesses the policy decides on, without I/O', () => {
    const access = (name: string, args: unknown) => {
      const tool = fileTools.find((candidate) => candidate.name === name)!;
      return tool.access(tool.input.parse(args));
    };
    expect(access('read_file', { path: 'a' })).toEqual([{ operation: 'read', path: 'a' }]);
    expect(access('write_file', { path: 'a', content: '' })).toEqual([{ operation: 'write', path: 'a' }]);
    expect(access('edit_file', { path: 'a', oldText: 'x', newText: 'y' })).toEqual([{ operation: 'edit', path: 'a' }]);
    expect(access('delete_file', { path: 'a' })).toEqual([{ operation: 'delete', path: 'a' }]);
    // A rename's files are known only from the server: it is decided as an edit of the workspace too.
    expect(access('code_rename', { symbol: 'f', new_name: 'g' })).toEqual([{ operation: 'edit', path: '.' }]);
    expect(access('code_format', { path: 'a.ts' })).toEqual([{ operation: 'edit', path: 'a.ts' }]);
    expect(access('code_definition', { path: 'a.ts', line: 1, column: 1 })).toEqual([
      { operation: 'read', path: 'a.ts' },
    ]);
    expect(access('move_file', { source: 'a', destination: 'b' })).toEqual([
      { operation: 'move', path: 'a' },
      { operation: 'move', path: 'b' },
    ]);
    expect(access('list_files', {})).toEqual([{ operation: 'read', path: '.' }]);
    expect(access('search_in_code', { query: 'q' })).toEqual([{ operation: 'read', path: '.' }]);
    expect(access('get_file_info', { path: 'a' })).toEqual([{ operation: 'read', path: 'a' }]);
    expect(access('create_directory', { path: 'd' })).toEqual([{ operation: 'write', path: 'd' }]);
    expect(access('run_command', { command: 'ls', cwd: 'src' })).toEqual([{ operation: 'run', path: 'src' }]);
    expect(access('git_status', {})).toEqual([{ operation: 'read', path: '.' }]);
    expect(access('git_diff', { path: 'a' })).toEqual([{ operation: 'read', path: 'a' }]);
    // A commit is decided as 'run' (ask by default) on every path it takes.
    expect(access('git_commit', { message: 'm' })).toEqual([{ operation: 'run', path: '.' }]);
    expect(access('git_commit', { message: 'm', paths: ['a', 'b'] })).toEqual([
      { operation: 'run', path: 'a' },
      { operation: 'run', path: 'b' },
    ]);
    expect(access('file_upload', { name: 'n.txt', content: '' })).toEqual([
      { operation: 'write', path: 'uploads/n.txt' },
    ]);
    expect(access('file_download', { path: 'a' })).toEqual([{ operation: 'read', path: 'a' }]);
    expect(access('file_semantic_search', { query: 'q' })).toEqual([{ operation: 'read', path: '.' }]);
  });

  it('gives every tool a JSON Schema the providers can send', () => {
    for (const tool of fileTools) {
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as {
        type: string;
        properties: Record<string, unknown>;
      };
      expect(schema.type, tool.name).toBe('object');
      // git_status takes no parameters: an empty object schema, still a valid tool schema.
      if (tool.name !== 'git_status') expect(Object.keys(schema.properties).length, tool.name).toBeGreaterThan(0);
      else expect(schema.properties).toEqual({});
    }
  });
});
