import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { AssistantPart, ChatMessage } from '../shared/ipc/conversations';
import { callFamiliar, expect, test } from './fixtures/familiar-app';
import type { RunningApp } from './fixtures/familiar-app';
import { readyCodeView } from './fixtures/page-helpers';
import { reply } from './fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from './fixtures/scripted-llm-server';

/**
 * Memory people can trust, in the real renderer against the real core: a persona change approved,
 * then reverted from the History panel; and the memory switch (issue 6, story 2) holding for the
 * tools the model is offered, for a scripted attempt on MEMORY.md, and for History.
 *
 * The chat UI is built by another branch: messages are sent through the same bridge the page uses,
 * and everything the user answers (approval, History, switch) is done in the page.
 */

// Every test talks to the scripted model: the app starts with it saved as the provider.
test.use({ provider: 'scripted' });
let llm: ScriptedLlmServer;
test.beforeEach(({ llm: server }) => {
  llm = server;
});

async function must<T>(result: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>) {
  const answer = await result;
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

/** Sends one message in a new conversation and waits for the turn to end; answers its tool parts. */
async function runTurn(app: RunningApp, text: string, whileRunning?: () => Promise<void>) {
  const { id } = await must(callFamiliar(app, 'conversations.create', {}));
  await must(callFamiliar(app, 'chat.send', { conversationId: id, text }));
  await whileRunning?.();
  let messages: ChatMessage[] = [];
  await expect
    .poll(
      async () => {
        messages = (await must(callFamiliar(app, 'conversations.open', { id }))).messages;
        const last = messages.at(-1);
        return last?.role === 'assistant' ? last.status : 'waiting';
      },
      { timeout: 15_000 },
    )
    .toBe('complete');
  return messages.flatMap((message) =>
    message.role === 'assistant'
      ? message.parts.filter((part): part is Extract<AssistantPart, { type: 'tool' }> => part.type === 'tool')
      : [],
  );
}

async function toolNamesInPopover(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: /^Tools/ }).click();
  const popover = page.getByRole('dialog', { name: 'Tools the assistant can use now' });
  const names = await popover.getByTestId('tool-card').locator('.tool-card-title code').allTextContents();
  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  return names;
}

/** The same request with memory off and on: the model tries to change MEMORY.md (basil → cactus). */
async function tryToEditMemory(app: RunningApp, closing: string) {
  llm.enqueue(
    reply.toolCall('edit_file', { path: 'MEMORY.md', oldText: 'basil', newText: 'cactus' }),
    reply.text(closing),
  );
  return runTurn(app, 'Change my memory.');
}

test('approve a SOUL.md change, see what the assistant will read, then revert it from History', async ({
  page,
  app,
}) => {
  const soulPath = join(app.home, 'workspace', 'SOUL.md');
  const original = await readFile(soulPath, 'utf8');
  const oldText = original.split('\n').find((line) => line.trim() !== '') ?? '';
  const newText = '# I am a cheerful pirate companion.';
  llm.enqueue(reply.toolCall('edit_file', { path: 'SOUL.md', oldText, newText }), reply.text('Done.'));
  await page.goto(app.url);

  const tools = await runTurn(app, 'Be a pirate.', async () => {
    const dialog = page.getByRole('dialog', { name: /asks for your approval/ });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Persona (SOUL.md)');
    const preview = dialog.getByTestId('prompt-preview');
    await preview.getByText('What the assistant will read').click();
    await expect(preview.locator('pre')).toContainText(`## Your persona (SOUL.md)\n\n${newText}`);
    expect(await readFile(soulPath, 'utf8')).toBe(original);
    await page.screenshot({ path: 'test-results/screens/soul-approval-prompt-preview.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(dialog).toBeHidden();
  });
  expect(tools[0]?.result).toMatchObject({ ok: true });
  const approved = original.replace(oldText, newText);
  expect(await readFile(soulPath, 'utf8')).toBe(approved);

  await page.getByRole('button', { name: 'History', exact: true }).click();
  const history = page.getByRole('dialog', { name: 'Persona and memory history' });
  await expect(history.getByRole('button', { name: 'SOUL.md', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const versions = history.getByTestId('history-version');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText('assistant');
  await expect(versions.nth(1)).toContainText('Initial version');
  // The previous version is chosen: the diff shows it against the file now, in Monaco.
  await expect(versions.nth(1)).toHaveAttribute('aria-pressed', 'true');
  await expect((await readyCodeView(history)).locator('.monaco-diff-editor')).toContainText('cheerful pirate');
  await page.screenshot({ path: 'test-results/screens/history-soul-diff.png', fullPage: true });

  await history.getByRole('button', { name: 'Revert to this version' }).click();
  await expect(history.getByRole('status').filter({ hasText: 'Reverted.' })).toBeVisible();
  expect(await readFile(soulPath, 'utf8')).toBe(original);
  await expect(versions).toHaveCount(3);
  await expect(versions.first()).toContainText('Reverted to the version of');
  await expect(versions.first()).toContainText('you');
  await expect(history.getByText('This version is the current text.')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/history-soul-reverted.png', fullPage: true });
});

test('memory off: the memory tools go, MEMORY.md is refused and untouched, History turns read-only; on again works', async ({
  page,
  app,
}) => {
  const memoryPath = join(app.home, 'workspace', 'MEMORY.md');
  await page.goto(app.url);
  const memory = page.getByRole('switch', { name: 'Memory' });
  await expect(memory).toBeChecked();
  const withMemory = await toolNamesInPopover(page);
  expect(withMemory).toEqual(expect.arrayContaining(['memory_search', 'memory_append']));

  // Memory on: memory_append adds an entry (and a version to MEMORY.md's history).
  llm.enqueue(reply.toolCall('memory_append', { text: 'Ada waters the basil on Sundays.' }), reply.text('Noted.'));
  const appended = await runTurn(app, 'Remember my basil routine.');
  expect(appended[0]?.result).toMatchObject({ ok: true });
  const afterAppend = await readFile(memoryPath, 'utf8');
  expect(afterAppend).toContain('Ada waters the basil on Sundays.');

  await memory.click({ force: true });
  await expect(memory).not.toBeChecked();
  await expect(page.getByTestId('memory-off')).toBeVisible();
  const withoutMemory = await toolNamesInPopover(page);
  expect(withoutMemory).toEqual(withMemory.filter((name) => name !== 'memory_search' && name !== 'memory_append'));
  expect(llm.requests.at(-1)?.toolNames).toContain('memory_append');

  const refused = await tryToEditMemory(app, 'I cannot, memory is off.');
  expect(refused[0]?.result).toMatchObject({ ok: false, code: 'permission_denied' });
  expect(refused[0]?.result?.summary).toMatch(/switched memory off/);
  expect(await readFile(memoryPath, 'utf8')).toBe(afterAppend);
  expect(llm.requests.at(-1)?.toolNames).not.toContain('memory_append');
  expect(llm.requests.at(-1)?.toolNames).not.toContain('memory_search');

  // History still lists and diffs MEMORY.md, but will not revert it while memory is off.
  await page.getByRole('button', { name: 'History', exact: true }).click();
  const history = page.getByRole('dialog', { name: 'Persona and memory history' });
  await history.getByRole('button', { name: 'MEMORY.md', exact: true }).click();
  const versions = history.getByTestId('history-version');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText('memory_append');
  await readyCodeView(history);
  await expect(history.getByText('Memory is off: MEMORY.md is read-only.')).toBeVisible();
  await expect(history.getByRole('button', { name: 'Revert to this version' })).toBeDisabled();
  await page.screenshot({ path: 'test-results/screens/memory-off-history-read-only.png', fullPage: true });
  // The core holds the line too, whatever a page sends.
  const refusedRevert = await callFamiliar(app, 'history.revert', {
    file: 'MEMORY.md',
    id: (await must(callFamiliar(app, 'history.list', { file: 'MEMORY.md' }))).versions[1]?.id ?? '',
  });
  expect(refusedRevert).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
  expect(await readFile(memoryPath, 'utf8')).toBe(afterAppend);
  await history.getByRole('button', { name: 'Close' }).click();

  await memory.click({ force: true });
  await expect(memory).toBeChecked();
  expect(await toolNamesInPopover(page)).toEqual(withMemory);
  const allowed = await tryToEditMemory(app, 'Changed.');
  expect(allowed[0]?.result).toMatchObject({ ok: true });
  expect(await readFile(memoryPath, 'utf8')).toBe(afterAppend.replace('basil', 'cactus'));
  await page.screenshot({ path: 'test-results/screens/memory-on-again.png', fullPage: true });
});

test('a persona file cut for the prompt is flagged in the header; an incognito conversation runs without memory and is never saved', async ({
  page,
  app,
}) => {
  await writeFile(join(app.home, 'workspace', 'SOUL.md'), `# Soul\n\n${'I am very talkative. '.repeat(1500)}\n`);
  await page.goto(app.url);
  const warning = page.getByTestId('prompt-truncated');
  await expect(warning).toHaveText(/SOUL\.md is cut in the prompt/);
  await warning.click();
  const history = page.getByRole('dialog', { name: 'Persona and memory history' });
  await expect(history.getByRole('alert')).toContainText('characters');
  await expect(history.locator('meter')).toHaveAttribute('max', '20000');
  await page.screenshot({ path: 'test-results/screens/persona-truncated-warning.png', fullPage: true });
  await history.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'New incognito conversation' }).click();
  const panel = page.getByRole('dialog', { name: 'New incognito conversation' });
  await expect(panel).toContainText('nothing of it is saved');
  await page.screenshot({ path: 'test-results/screens/incognito-explained.png', fullPage: true });
  await panel.getByRole('button', { name: 'Start incognito' }).click();
  await expect(panel).toBeHidden();
  const listed = await must(callFamiliar(app, 'conversations.list', {}));
  const incognito = listed.conversations.find((conversation) => conversation.incognito === true);
  expect(incognito).toBeDefined();
  const id = incognito?.id ?? '';

  llm.enqueue(reply.text('Hello, privately.'));
  await must(callFamiliar(app, 'chat.send', { conversationId: id, text: 'Hi' }));
  await expect
    .poll(async () => (await must(callFamiliar(app, 'conversations.open', { id }))).messages.at(-1))
    .toMatchObject({ role: 'assistant', status: 'complete' });
  const request = llm.requests.at(-1);
  expect(request?.toolNames).not.toContain('memory_append');
  expect(request?.system).toContain('The user has switched memory off.');
  // Memory is still on for everyone else: only this conversation runs without it.
  await expect(page.getByRole('switch', { name: 'Memory' })).toBeChecked();
  expect(await readdir(join(app.home, 'conversations'))).not.toContain(`${id}.jsonl`);
});
