import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { reply } from './fixtures/scripted-llm-server';
import { callFamiliar, expect, test } from './fixtures/familiar-app';

test.use({ provider: 'scripted' });

async function openSchedules(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: 'Heartbeat & tasks' }).click();
  return dialog.getByRole('region', { name: 'Heartbeat & tasks' });
}

test('the heartbeat: HEARTBEAT_OK leaves only a history line; anything else notifies with a badge', async ({
  page,
  app,
  llm,
}) => {
  await writeFile(join(app.home, 'workspace', 'HEARTBEAT.md'), '# Heartbeat\n\n- Is the nightly build green?\n');
  // All day, so the test does not depend on the hour it runs at.
  const hours = await callFamiliar(app, 'settings.update', {
    schedules: { heartbeat: { activeFrom: '00:00', activeTo: '00:00' } },
  });
  expect(hours.ok).toBe(true);
  llm.enqueue(reply.text('HEARTBEAT_OK'));
  await page.goto(app.url);
  const section = await openSchedules(page);
  // The box follows the saved setting (settings.changed), so it is clicked, then seen checked.
  const heartbeatOn = section.getByRole('checkbox', { name: 'Run the heartbeat' });
  await heartbeatOn.click();
  await expect(heartbeatOn).toBeChecked();

  const history = section.getByRole('table', { name: 'Run history' });
  await expect(history.getByRole('row').nth(1)).toContainText('Heartbeat');
  await expect(history.getByRole('row').nth(1)).toContainText('done');
  expect(JSON.stringify(llm.requests[0]?.messages)).toContain('Is the nightly build green?');
  const quiet = await callFamiliar(app, 'conversations.list', {});
  expect(quiet.ok && quiet.value.conversations).toEqual([]);

  llm.enqueue(reply.text('The nightly build is red since 02:00.'));
  await section.getByRole('button', { name: 'Run now' }).first().click();
  await expect(history.getByRole('row').nth(1)).toContainText('needs attention');
  const toast = page.locator('.schedule-notice').filter({ hasText: 'The nightly build is red since 02:00.' });
  await expect(toast).toBeVisible();
  await page.keyboard.press('Escape');
  const badge = page.getByRole('button', { name: '1 new from the heartbeat and tasks' });
  await expect(badge).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toContainText('Heartbeat');
  await page.screenshot({ path: 'test-results/screens/heartbeat-notification.png' });
  await badge.click();
  await expect(badge).toBeHidden();
});

test('a task: the schedule previews its next runs, Run now waits for approval and notifies, the history says what happened', async ({
  page,
  app,
  llm,
}) => {
  await page.goto(app.url);
  const section = await openSchedules(page);
  await section.getByRole('button', { name: 'New task' }).click();
  const form = section.getByRole('form', { name: 'New task' });
  await form.getByLabel('Name').fill('Morning note');
  await form.getByLabel('Prompt').fill('Write a short morning note to note.md.');
  const schedule = form.getByLabel('Schedule', { exact: true });
  await schedule.fill('whenever');
  await expect(form.locator('#task-schedule-preview')).toContainText('neither cron text nor a phrase');
  await schedule.fill('every weekday at 8:30');
  await expect(form.locator('#task-schedule-preview')).toContainText('Next:');
  await form.getByRole('button', { name: 'Save task' }).click();

  const row = section.getByRole('listitem', { name: 'Morning note' });
  await expect(row).toContainText('every weekday at 8:30');
  await expect(row).toContainText('Next run:');
  const saved = await callFamiliar(app, 'schedules.state', {});
  expect(saved.ok && saved.value.tasks[0]?.task).toMatchObject({ name: 'Morning note', toolPolicy: 'ask' });

  llm.enqueue(reply.toolCall('write_file', { path: 'note.md', content: 'Good morning.\n' }), reply.text('Written.'));
  await row.getByRole('button', { name: 'Run now' }).click();
  const approval = page.getByRole('dialog', { name: 'The assistant asks for your approval' });
  await expect(approval).toBeVisible();
  await expect(page.locator('.schedule-notice').filter({ hasText: 'Morning note' })).toBeVisible();
  await expect(readFile(join(app.workspace, 'note.md'), 'utf8')).rejects.toThrow();
  await approval.getByRole('button', { name: 'Approve', exact: true }).click();

  // expect.poll stops at the first thrown error, so a read before the write lands must answer, not throw.
  await expect
    .poll(() => readFile(join(app.workspace, 'note.md'), 'utf8').catch((error: NodeJS.ErrnoException) => error.code))
    .toBe('Good morning.\n');
  await expect
    .poll(async () => {
      const state = await callFamiliar(app, 'schedules.state', {});
      return state.ok ? state.value.runs[0]?.status : undefined;
    })
    .toBe('ok');
  const history = section.getByRole('table', { name: 'Run history' });
  await expect(history.getByRole('row').nth(1)).toContainText('Morning note');
  await expect(history.getByRole('row').nth(1)).toContainText('done');
  await expect(history.getByRole('row').nth(1).getByRole('cell').nth(4)).toHaveText('1');
});
