import { pageApi } from '../../test-support/page-api';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ToolList } from '../../../shared/ipc/assistant';
import { defaultSettings } from '../../../shared/settings';
import type { Settings } from '../../../shared/settings';
import { ok } from '../../../shared/result';
import { settingsActions } from '../settings/settings-store';
import { ToolsPopover } from '../tools/ToolsPopover';
import { toolsActions } from '../tools/tools-store';
import { MemoryOffIndicator } from './MemoryOffIndicator';
import { MemorySwitch } from './MemorySwitch';

let settings: Settings;

/** The tool list main would send: a memory tool exists only while memory is on. */
const toolList = (memoryEnabled: boolean): ToolList => ({
  memoryEnabled,
  tools: [
    {
      name: 'read_file',
      description: 'Reads a file.',
      memoryOnly: false,
      operations: [{ operation: 'read', rules: [{ pattern: '**', decision: 'allow' }] }],
    },
    ...(memoryEnabled
      ? [
          {
            name: 'memory_append',
            description: 'Appends a dated note.',
            memoryOnly: true,
            operations: [{ operation: 'edit' as const, rules: [{ pattern: 'MEMORY.md', decision: 'allow' as const }] }],
          },
        ]
      : []),
  ],
});

beforeEach(() => {
  pageApi.reset();
  settings = defaultSettings();
  pageApi.answer('settings.get', () => ok(settings));
  pageApi.answer('settings.update', (patch) => {
    settings = { ...settings, memory: { enabled: patch.memory?.enabled ?? settings.memory.enabled } };
    return ok(settings);
  });
  pageApi.answer('tools.list', () => ok(toolList(settings.memory.enabled)));
});

async function renderHeader() {
  render(
    <>
      <MemoryOffIndicator />
      <MemorySwitch />
      <ToolsPopover />
    </>,
  );
  const stops = [settingsActions.connect(pageApi.api), toolsActions.connect(pageApi.api)];
  await screen.findByRole('button', { name: 'Tools (2)' });
  return stops;
}

describe('memory switch and tools popover', () => {
  it('flips memory through settings.update and shows "Memory off"', async () => {
    await renderHeader();
    const memory = screen.getByRole<HTMLInputElement>('switch', { name: 'Memory' });
    expect(memory.checked).toBe(true);
    expect(screen.queryByText('Memory off')).toBeNull();
    await userEvent.click(memory);
    expect(pageApi.calls.filter((call) => call.name === 'settings.update').map((call) => call.input)).toEqual([
      { memory: { enabled: false } },
    ]);
    expect(memory.checked).toBe(false);
    expect(screen.getByText('Memory off')).toBeTruthy();
  });

  it('follows settings.changed and tools.changed pushed by main', async () => {
    await renderHeader();
    act(() => {
      pageApi.emit('settings.changed', { ...settings, memory: { enabled: false } });
      pageApi.emit('tools.changed', toolList(false));
    });
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Memory' }).checked).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Tools (1)' }));
    const popover = screen.getByRole('dialog', { name: 'Tools the assistant can use now' });
    expect(within(popover).getByText(/Memory is off/)).toBeTruthy();
    expect(
      within(popover)
        .getAllByTestId('tool-card')
        .map((card) => card.querySelector('code')?.textContent),
    ).toEqual(['read_file']);
  });

  it('lists exactly the registered tools with the policy rows that decide each operation', async () => {
    await renderHeader();
    await userEvent.click(screen.getByRole('button', { name: 'Tools (2)' }));
    const popover = screen.getByRole('dialog', { name: 'Tools the assistant can use now' });
    const cards = within(popover).getAllByTestId('tool-card');
    expect(cards.map((card) => card.querySelector('code')?.textContent)).toEqual(['read_file', 'memory_append']);
    const memoryCard = within(cards[1] as HTMLElement);
    expect(memoryCard.getByText('memory')).toBeTruthy();
    expect(memoryCard.getByText('Edit')).toBeTruthy();
    expect(memoryCard.getByText('MEMORY.md')).toBeTruthy();
    expect(memoryCard.getByText('allow').className).toContain('badge-allow');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Tools (2)' }));
  });

  it('says so when no tool is registered, and lists none', async () => {
    await renderHeader();
    act(() => pageApi.emit('tools.changed', { memoryEnabled: false, tools: [] }));
    await userEvent.click(screen.getByRole('button', { name: 'Tools (0)' }));
    const popover = screen.getByRole('dialog', { name: 'Tools the assistant can use now' });
    expect(within(popover).getByText('No tools are registered right now.')).toBeTruthy();
    expect(within(popover).queryAllByTestId('tool-card')).toEqual([]);
  });
});
