import { pageApi as contract } from '../../test-support/page-api';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { McpCatalog } from '../../../shared/mcp-attachments';
import { ok } from '../../../shared/result';
import { configuredStatus, userMessage } from '../../test-support/fixtures';
import { initialProvidersState, useProvidersStore } from '../providers/providers-store';
import { initialChatState, useChatStore } from './chat-store';
import { Composer } from './Composer';
import { useDraftsStore } from './drafts-store';
import { useMcpPicksStore } from './mcp-picks-store';

const id = 'c-conversation-1';

const catalog: McpCatalog = {
  resources: [
    { server: 'everything', uri: 'demo://doc/architecture.md', name: 'architecture.md' },
    { server: 'everything', uri: 'demo://doc/features.md', name: 'features.md' },
  ],
  templates: [{ server: 'everything', uriTemplate: 'demo://dynamic/{resourceId}', name: 'Dynamic' }],
  prompts: [
    { server: 'everything', name: 'simple-prompt', arguments: [] },
    {
      server: 'everything',
      name: 'args-prompt',
      arguments: [
        { name: 'city', required: true },
        { name: 'state', required: false },
      ],
    },
  ],
  errors: [],
};

function setUp(offered: McpCatalog) {
  contract.reset({
    'chat.send': () => ok({ turnId: 't-turn-0001', userMessageId: 'm-message-2' }),
    'mcpServers.catalog': () => ok(offered),
  });
  useChatStore.setState({
    ...initialChatState(),
    threads: {
      [id]: {
        status: 'ready',
        thread: { messages: [userMessage('m-message-1', 'earlier')], runningTurnId: null, errorReceivedAt: {} },
        loadError: null,
        skippedLines: 0,
        busy: null,
        actionError: null,
        joinedMidTurn: false,
      },
    },
  });
  useDraftsStore.setState({ drafts: {} });
  useMcpPicksStore.setState({ pending: {}, catalog: null, loading: false });
  useProvidersStore.setState({ ...initialProvidersState(), status: configuredStatus() });
}

beforeEach(() => {
  localStorage.clear();
  setUp(catalog);
});

const box = () => screen.getByRole('textbox', { name: 'Message to Familiar' });
const optionTexts = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the composer’s @ and / menus (MCP resources and prompts)', () => {
  it('lists resources for @, moves with the arrows, picks with Enter as a chip, and sends it', async () => {
    const user = userEvent.setup();
    render(<Composer conversationId={id} />);
    await user.type(box(), 'Read @');
    const menu = await screen.findByRole('listbox', { name: 'Resources of your MCP servers' });
    expect(optionTexts(menu)).toEqual([
      '@architecture.mddemo://doc/architecture.md · from everything',
      '@features.mddemo://doc/features.md · from everything',
      '@Dynamicdemo://dynamic/{resourceId} · template, asks for resourceId · from everything',
    ]);
    expect(box().getAttribute('aria-activedescendant')).toBe(within(menu).getAllByRole('option')[0]!.id);
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getAllByRole('option')[1]).toHaveProperty('ariaSelected', 'true');
    expect(box().getAttribute('aria-activedescendant')).toBe(within(menu).getAllByRole('option')[1]!.id);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box()).toHaveProperty('value', 'Read ');
    const chips = screen.getByRole('list', { name: 'Attached from MCP servers' });
    expect(chips.textContent).toContain('@features.md');
    expect(contract.inputsOf('chat.send')).toEqual([]);

    await user.type(box(), 'this{Enter}');
    expect(contract.inputsOf('chat.send')).toEqual([
      {
        conversationId: id,
        text: 'Read this',
        mcp: [{ kind: 'resource', server: 'everything', uri: 'demo://doc/features.md' }],
      },
    ]);
    expect(screen.queryByRole('list', { name: 'Attached from MCP servers' })).toBeNull();
  });

  it('filters by what follows @, and Esc closes the menu without touching the draft', async () => {
    const user = userEvent.setup();
    render(<Composer conversationId={id} />);
    await user.type(box(), '@feat');
    const menu = await screen.findByRole('listbox');
    expect(within(menu).getAllByRole('option')).toHaveLength(1);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box()).toHaveProperty('value', '@feat');
  });

  it('lists prompts for /, asks a prompt’s arguments in a small form, and sends the prompt with them', async () => {
    const user = userEvent.setup();
    render(<Composer conversationId={id} />);
    await user.type(box(), '/args');
    const menu = await screen.findByRole('listbox', { name: 'Prompts of your MCP servers' });
    expect(optionTexts(menu).map((text) => text?.split(' · ')[0])).toEqual(['/everything:args-prompt']);
    await user.keyboard('{Enter}');
    const form = await screen.findByRole('dialog', { name: 'Arguments of /everything:args-prompt' });
    const attach = within(form).getByRole('button', { name: 'Attach' });
    expect(attach).toHaveProperty('disabled', true);
    await user.type(within(form).getByRole('textbox', { name: 'city (required)' }), 'Reykjavik');
    await user.click(attach);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('list', { name: 'Attached from MCP servers' }).textContent).toContain(
      '/everything:args-prompt',
    );
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(contract.inputsOf('chat.send')).toEqual([
      {
        conversationId: id,
        text: '',
        mcp: [{ kind: 'prompt', server: 'everything', name: 'args-prompt', arguments: { city: 'Reykjavik' } }],
      },
    ]);
  });

  it('shows no menu when no server offers anything: @ and / are plain text', async () => {
    setUp({ resources: [], templates: [], prompts: [], errors: [] });
    const user = userEvent.setup();
    render(<Composer conversationId={id} />);
    await user.type(box(), 'mail me @home');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.type(box(), ' /now');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.keyboard('{Enter}');
    expect(contract.inputsOf('chat.send')).toEqual([{ conversationId: id, text: 'mail me @home /now' }]);
  });
});
