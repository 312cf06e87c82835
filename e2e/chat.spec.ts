import { reply } from './fixtures/scripted-llm-server';
import { expect, test } from './fixtures/familiar-app';

test.use({ provider: 'scripted' });

const answer = [
  '## Sorting in place',
  '',
  'Use **`list.sort()`** when you do not need the original order:',
  '',
  '```python',
  'numbers = [3, 1, 2]',
  'numbers.sort()',
  'print(numbers)',
  '```',
  '',
  'It returns `None`, so do not assign its result.',
].join('\n');

test('a streamed Markdown answer with a code block appears progressively and completes', async ({ page, app, llm }) => {
  llm.enqueue(reply.text(answer, { chunkSize: 6, chunkDelayMs: 40 }));
  await page.goto(app.url);
  const composer = page.getByRole('textbox', { name: 'Message to Familiar' });
  await composer.fill('How do I sort a list in Python?');
  await composer.press('Enter');

  await expect(page.getByRole('article', { name: 'You' })).toHaveText('How do I sort a list in Python?');
  const reply_ = page.getByRole('article', { name: 'Familiar' });
  // Part of the answer is on screen while the rest is still streaming.
  await expect(reply_.getByRole('heading', { name: 'Sorting in place' })).toBeVisible();
  await expect(reply_).toHaveAttribute('data-status', 'running');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();

  await expect(reply_).toHaveAttribute('data-status', 'complete', { timeout: 15_000 });
  await expect(reply_.getByText('It returns None, so do not assign its result.')).toBeVisible();
  const code = reply_.locator('.code-block');
  await expect(code.locator('code')).toHaveText('numbers = [3, 1, 2]\nnumbers.sort()\nprint(numbers)');
  // Highlighted by the lazily loaded grammar chunk, and copyable.
  await expect(code.locator('code.hljs .hljs-built_in')).toHaveText('print');
  await expect(code.getByRole('button', { name: 'Copy code' })).toBeVisible();
  // The conversation took its title from the first message.
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toContainText(
    'How do I sort a list in Python?',
  );
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/chat-markdown.png' });
});

test('Stop mid-stream keeps the partial answer, marked stopped', async ({ page, app, llm }) => {
  const long = Array.from({ length: 200 }, (_, index) => `Sentence number ${index + 1} of a long answer.`).join(' ');
  llm.enqueue(reply.text(long, { chunkSize: 10, chunkDelayMs: 30 }));
  await page.goto(app.url);
  const composer = page.getByRole('textbox', { name: 'Message to Familiar' });
  await composer.fill('Tell me a long story');
  await composer.press('Enter');

  const reply_ = page.getByRole('article', { name: 'Familiar' });
  await expect(reply_).toContainText('Sentence number 3');
  await page.getByRole('button', { name: 'Stop' }).click();

  await expect(reply_).toHaveAttribute('data-status', 'stopped');
  await expect(reply_.getByText('Stopped', { exact: true })).toBeVisible();
  const partial = (await reply_.locator('.markdown').innerText()).trim();
  expect(partial.startsWith('Sentence number 1 of a long answer.')).toBe(true);
  expect(partial.length).toBeLessThan(long.length);
  await expect.poll(() => llm.requests[0]?.closedEarly).toBe(true);

  // The stop is in the transcript: a reload shows the same partial text, still marked stopped.
  await page.reload();
  const reloaded = page.getByRole('article', { name: 'Familiar' });
  await expect(reloaded).toHaveAttribute('data-status', 'stopped');
  expect((await reloaded.locator('.markdown').innerText()).trim()).toBe(partial);
  await page.screenshot({ path: 'test-results/screens/chat-stopped.png' });
});

test('a rate limit shows its countdown, and Retry then succeeds', async ({ page, app, llm }) => {
  llm.enqueue(
    reply.httpError(429, 'Rate limit reached for requests', 2),
    reply.text('Here is the answer after waiting.'),
  );
  await page.goto(app.url);
  const composer = page.getByRole('textbox', { name: 'Message to Familiar' });
  await composer.fill('Hello?');
  await composer.press('Enter');

  const error = page.getByRole('group', { name: 'The answer failed' });
  await expect(error).toContainText('The provider is limiting how fast requests may be sent.');
  await expect(error).toContainText('Rate limit reached for requests');
  const retry = error.getByRole('button', { name: /^Retry in \d s$/ });
  await expect(retry).toBeDisabled();
  await page.screenshot({ path: 'test-results/screens/chat-rate-limited.png' });

  await error.getByRole('button', { name: 'Retry', exact: true }).click({ timeout: 5_000 });
  const answered = page.locator('article[data-status="complete"]');
  await expect(answered).toContainText('Here is the answer after waiting.');
  // The failed attempt stays, folded away, above the answer that replaced it.
  await expect(page.getByText('Earlier attempt failed (provider_rate_limited)')).toBeVisible();
  await expect(page.getByRole('group', { name: 'The answer failed' })).toHaveCount(0);
  expect(llm.pending()).toBe(0);
});
