import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { RecordedRequest, ScriptedLlmServer } from './fixtures/scripted-llm-server';
import { reply } from './fixtures/scripted-llm-server';
import { callFamiliar, expect, test } from './fixtures/familiar-app';
import { readyCodeView, sendMessage } from './fixtures/page-helpers';
import type { RunningApp } from './fixtures/familiar-app';

test.use({ provider: 'scripted' });

const oldLine = '- Be direct and warm. Say what you did and what you did not do.';
const newLine = '- Be formal and brief. Say what you did and what you did not do.';
const soulPath = (app: RunningApp) => join(app.home, 'workspace', 'SOUL.md');
const soul = (app: RunningApp) => readFile(soulPath(app), 'utf8');

/** The tool message the model got back for its call, from the request the scripted server recorded. */
function toolReply(request: RecordedRequest | undefined, callId: string): string {
  const messages = (request?.messages ?? []) as { role?: string; tool_call_id?: string; content?: unknown }[];
  const message = messages.find((candidate) => candidate.role === 'tool' && candidate.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content ?? null);
}

/** The model asks to edit SOUL.md; the approval dialog opens with Monaco's diff of exactly that change. */
async function askForPersonaEdit(page: Page, app: RunningApp, llm: ScriptedLlmServer, callId: string) {
  llm.enqueue(
    reply.toolCall(
      'edit_file',
      { path: 'SOUL.md', oldText: oldLine, newText: newLine },
      'Let me adjust my tone.',
      callId,
    ),
    reply.text('Understood.'),
  );
  await page.goto(app.url);
  await sendMessage(page, 'Please be more formal from now on.');
  const dialog = page.getByRole('dialog', { name: 'The assistant asks for your approval' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Persona (SOUL.md)');
  const diff = (await readyCodeView(dialog)).locator('.monaco-diff-editor');
  await expect(diff.locator('.editor.original .view-lines')).toContainText(oldLine);
  await expect(diff.locator('.editor.modified .view-lines')).toContainText(newLine);
  await expect(diff.locator('.editor.modified .view-lines')).not.toContainText(oldLine);
  // What the diff is drawn from, as the core holds it: the whole file before, and after exactly one line changed.
  const pending = await callFamiliar(app, 'approvals.list', {});
  if (!pending.ok) throw new Error(pending.error.message);
  const request = pending.value.pending[0];
  expect(pending.value.pending).toHaveLength(1);
  expect(request?.paths).toEqual(['SOUL.md']);
  expect(request?.before).toBe(await soul(app));
  expect(request?.after).toBe(request?.before?.replace(oldLine, newLine));
  return dialog;
}

test('approving a persona edit writes exactly the proposed change, and not before', async ({ page, app, llm }) => {
  const before = await soul(app);
  const dialog = await askForPersonaEdit(page, app, llm, 'call-approve');
  await page.screenshot({ path: 'test-results/screens/persona-approval-diff.png' });
  // The model is waiting on the user: nothing is written yet.
  expect(await soul(app)).toBe(before);

  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => soul(app)).toBe(before.replace(oldLine, newLine));
  const card = page.locator('details.tool-card', { hasText: 'edit_file' });
  await expect(card.locator('.tool-outcome')).toHaveText('ok');
  await expect(page.getByRole('article', { name: 'Familiar' })).toContainText('Understood.');
  // The card's expanded view shows the unified diff edit_file returned.
  await card.locator('summary').click();
  await expect(card.locator('.tool-approval')).toHaveText('You approved this');
  const diffView = card.getByLabel('Changes');
  await expect(diffView.locator('.diff-del')).toHaveText([`-${oldLine}`]);
  await expect(diffView.locator('.diff-add')).toHaveText([`+${newLine}`]);
  await page.screenshot({ path: 'test-results/screens/persona-approved-card.png' });
  expect(toolReply(llm.requests[1], 'call-approve')).toContain('@@');
});

test('rejecting a persona edit leaves SOUL.md untouched and tells the model user_rejected', async ({
  page,
  app,
  llm,
}) => {
  const before = await soul(app);
  const dialog = await askForPersonaEdit(page, app, llm, 'call-reject');
  await dialog.getByRole('button', { name: 'Reject…' }).click();
  await dialog.getByLabel('Why? (optional; the assistant is told)').fill('Keep the warm tone');
  await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: 'Familiar' })).toContainText('Understood.');
  const card = page.locator('details.tool-card', { hasText: 'edit_file' });
  await expect(card.locator('.tool-outcome')).toHaveText('user_rejected');
  await card.locator('summary').click();
  await expect(card.locator('.tool-approval')).toHaveText('You rejected this: Keep the warm tone');
  await page.screenshot({ path: 'test-results/screens/persona-rejected.png' });
  const told = toolReply(llm.requests[1], 'call-reject');
  expect(told).toContain('user_rejected');
  expect(told).toContain('Keep the warm tone');
  expect(await soul(app)).toBe(before);
});

test('edit-then-approve writes the text the user typed, not the proposal', async ({ page, app, llm }) => {
  const before = await soul(app);
  const dialog = await askForPersonaEdit(page, app, llm, 'call-edit');
  await dialog.getByRole('button', { name: 'Edit, then approve' }).click();
  await expect(dialog.getByRole('button', { name: 'Approve my version' })).toBeVisible();
  const modified = (await readyCodeView(dialog)).locator('.monaco-diff-editor .editor.modified');
  await modified.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  const mine = '# Soul\n\nYou are Familiar. Be formal, brief and exact.\n';
  // Typed as the user would; Monaco auto-indents nothing here (no leading spaces, no brackets).
  await page.keyboard.type(mine);
  await expect(modified.locator('.view-lines')).toContainText('Be formal, brief and exact.');
  await page.screenshot({ path: 'test-results/screens/persona-edit-then-approve.png' });
  expect(await soul(app)).toBe(before);
  await dialog.getByRole('button', { name: 'Approve my version' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => soul(app)).toBe(mine);
  await expect(page.getByRole('article', { name: 'Familiar' })).toContainText('Understood.');
  // After a reload the card still says how the user answered: it is in the conversation's transcript.
  await page.reload();
  const card = page.locator('details.tool-card', { hasText: 'edit_file' });
  await card.locator('summary').click();
  await expect(card.locator('.tool-approval')).toHaveText('You edited and approved this');
});
