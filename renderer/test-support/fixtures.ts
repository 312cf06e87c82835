import type { ConfinementInfo } from '../../shared/ipc/app';
import type { ChatMessage, ConversationSummary } from '../../shared/ipc/conversations';
import type { ProviderStatus } from '../../shared/ipc/providers';
import type { WorkspaceEntry } from '../../shared/ipc/workspace';

/** Small builders for contract values, so tests state only what matters to them. */

export const summary = (id: string, title: string, updatedAt = '2025-03-01T10:00:00.000Z'): ConversationSummary => ({
  id,
  title,
  createdAt: '2025-03-01T09:00:00.000Z',
  updatedAt,
  messageCount: 0,
});

export const notConfigured = (keyStorage: ProviderStatus['keyStorage'] = 'encrypted'): ProviderStatus => ({
  provider: null,
  hasApiKey: false,
  needsApiKey: false,
  configured: false,
  keyStorage,
});

export const configuredStatus = (overrides: Partial<ProviderStatus> = {}): ProviderStatus => ({
  provider: {
    kind: 'openai-compatible',
    model: 'scripted-model',
    baseUrl: 'http://127.0.0.1:9/v1',
    maxSteps: 20,
    contextWindow: 128_000,
  },
  hasApiKey: false,
  needsApiKey: false,
  configured: true,
  keyStorage: 'encrypted',
  ...overrides,
});

export const userMessage = (id: string, text: string): ChatMessage => ({
  role: 'user',
  id,
  text,
  createdAt: '2025-03-01T10:00:00.000Z',
});

export const assistantMessage = (
  id: string,
  text: string,
  overrides: Partial<Extract<ChatMessage, { role: 'assistant' }>> = {},
): ChatMessage => ({
  role: 'assistant',
  id,
  retryOf: null,
  createdAt: '2025-03-01T10:00:01.000Z',
  status: 'complete',
  parts: text === '' ? [] : [{ type: 'text', text }],
  ...overrides,
});

/** A workspace entry named by its path: a plain file unless the test says otherwise. */
export const workspaceEntry = (
  path: string,
  type: WorkspaceEntry['type'] = 'file',
  extra: Partial<WorkspaceEntry> = {},
): WorkspaceEntry => ({
  name: path.slice(path.lastIndexOf('/') + 1),
  path,
  type,
  link: false,
  size: 0,
  ignored: false,
  persona: false,
  ...extra,
});

/** app.confinement as a confined Linux machine answers it, the workspace open, memory on. */
export const confinementInfo = (overrides: Partial<ConfinementInfo> = {}): ConfinementInfo => ({
  mode: { confined: true, tool: 'bubblewrap', path: '/usr/bin/bwrap' },
  search: { engine: 'ripgrep', source: 'path', path: '/usr/bin/rg' },
  processes: [
    {
      kind: 'command',
      writes: ['.'],
      reads: [],
      readOnly: ['SOUL.md', '.git/hooks', '.git/config'],
      hidden: [],
      network: false,
      toolchains: true,
    },
    {
      kind: 'git',
      writes: ['.git'],
      reads: ['.'],
      readOnly: ['.git/hooks'],
      hidden: [],
      network: false,
      toolchains: true,
    },
    {
      kind: 'ripgrep',
      writes: [],
      reads: ['.'],
      readOnly: [],
      hidden: ['MEMORY.md'],
      network: false,
      toolchains: false,
    },
  ],
  hiddenTrees: ['/home/ada', '/home/ada/.familiar'],
  toolchains: ['/home/ada/.nvm', '/home/ada/.cargo'],
  readableInHome: [],
  leftOut: [],
  userHome: '/home/ada',
  ...overrides,
});
