import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callFamiliar, expect, test } from './fixtures/familiar-app';
import type { RunningApp } from './fixtures/familiar-app';

/** The tool names the core offers the model right now, asked through the real bridge. */
async function registeredToolNames(app: RunningApp): Promise<string[]> {
  const list = await callFamiliar(app, 'tools.list', {});
  if (!list.ok) throw new Error(list.error.message);
  return list.value.tools.map((tool) => tool.name);
}

test('the memory switch flips the setting, shows "Memory off", and the tools popover mirrors tools.list', async ({
  page,
  app,
}) => {
  await page.goto(app.url);
  const memory = page.getByRole('switch', { name: 'Memory' });
  await expect(memory).toBeChecked();
  await expect(page.getByTestId('memory-off')).toHaveCount(0);

  const tools = page.getByRole('button', { name: /^Tools/ });
  await tools.click();
  const popover = page.getByRole('dialog', { name: 'Tools the assistant can use now' });
  await expect(popover).toContainText('Memory is on');
  const cards = popover.getByTestId('tool-card');
  // Memory on: the file tools and the memory tools are offered, and the popover lists exactly those
  // (the empty-list wording is checked in MemorySwitch.test.tsx, where an empty list can be made).
  const withMemory = await registeredToolNames(app);
  expect(withMemory).toEqual(expect.arrayContaining(['read_file', 'memory_search', 'memory_append']));
  await expect(cards.locator('.tool-card-title code')).toHaveText(withMemory);
  await expect(popover).not.toContainText('No tools are registered');
  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await expect(tools).toBeFocused();

  await memory.click({ force: true });
  await expect(memory).not.toBeChecked();
  await expect(page.getByTestId('memory-off')).toHaveText('Memory off');
  const saved = JSON.parse(await readFile(join(app.home, 'settings.json'), 'utf8')) as { memory: { enabled: boolean } };
  expect(saved.memory.enabled).toBe(false);
  expect(await callFamiliar(app, 'tools.list', {})).toMatchObject({ ok: true, value: { memoryEnabled: false } });

  await tools.click();
  await expect(popover).toContainText('Memory is off');
  const withoutMemory = await registeredToolNames(app);
  expect(withoutMemory).toContain('read_file');
  expect(withoutMemory.filter((name) => name.startsWith('memory_'))).toEqual([]);
  await expect(cards.locator('.tool-card-title code')).toHaveText(withoutMemory);
  await page.screenshot({ path: 'test-results/screens/memory-off-tools.png', fullPage: true });
  await page.keyboard.press('Escape');

  // Keyboard works too: Space on the focused switch turns memory back on.
  await memory.focus();
  await page.keyboard.press('Space');
  await expect(memory).toBeChecked();
  await expect(page.getByTestId('memory-off')).toHaveCount(0);
});

test('a change made elsewhere (another window) reaches the switch through settings.changed', async ({ page, app }) => {
  await page.goto(app.url);
  const memory = page.getByRole('switch', { name: 'Memory' });
  await expect(memory).toBeChecked();
  await callFamiliar(app, 'settings.update', { memory: { enabled: false } });
  await expect(memory).not.toBeChecked();
  await expect(page.getByTestId('memory-off')).toBeVisible();
});
