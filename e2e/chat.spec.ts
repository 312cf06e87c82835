import { reply } from './fixtures/scripted-llm-server';
import { expect, test } from './fixtures/familiar-app';
import { sendMessage } from './fixtures/page-helpers';
import { writeTranscript } from './fixtures/transcripts';

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
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  llm.enqueue(reply.text(answer, { chunkSize: 6, chunkDelayMs: 40 }));
  await page.goto(app.url);
  await sendMessage(page, 'How do I sort a list in Python?');

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
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  await code.getByRole('button', { name: 'Copy code' }).click();
  await expect(code.getByRole('button', { name: 'Copy code' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'numbers = [3, 1, 2]\nnumbers.sort()\nprint(numbers)',
  );
  // The conversation took its title from the first message.
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toContainText(
    'How do I sort a list in Python?',
  );
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/chat-markdown.png' });
  // Lazy highlighting chunk, Markdown and the live region all work under the CSP.
  expect(problems).toEqual([]);
});

test('Stop mid-stream keeps the partial answer, marked stopped', async ({ page, app, llm }) => {
  const long = Array.from({ length: 200 }, (_, index) => `Sentence number ${index + 1} of a long answer.`).join(' ');
  llm.enqueue(reply.text(long, { chunkSize: 10, chunkDelayMs: 30 }));
  await page.goto(app.url);
  await sendMessage(page, 'Tell me a long story');

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
  await sendMessage(page, 'Hello?');

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

test('a tool call shows as a compact card with its path and outcome code, expandable', async ({ page, app, llm }) => {
  // A tool no registry will ever have: the loop answers the model unknown_tool and the turn goes on.
  llm.enqueue(
    reply.toolCall('summon_dragon', { path: 'lair/hoard.md', gold: 3 }, 'Let me look.'),
    reply.text('That tool does not exist, so I cannot.'),
  );
  await page.goto(app.url);
  await sendMessage(page, 'Summon a dragon');

  const answered = page.locator('article[data-status="complete"]');
  await expect(answered).toContainText('That tool does not exist, so I cannot.');
  const card = answered.locator('details.tool-card');
  await expect(card.locator('summary')).toContainText('summon_dragon');
  await expect(card.locator('summary')).toContainText('lair/hoard.md');
  await expect(card.locator('.tool-outcome')).toHaveText('unknown_tool');
  await card.locator('summary').click();
  await expect(card.getByText('"gold": 3')).toBeVisible();
  expect(llm.requests).toHaveLength(2);
  await page.screenshot({ path: 'test-results/screens/chat-tool-card.png' });
});

test('a 1,000-message conversation opens at its end and keeps only a window of rows in the page', async ({
  page,
  app,
}) => {
  await writeTranscript(app.home, {
    id: 'c-long-history-0001',
    title: 'Long history',
    exchanges: 500,
    answer: (index) =>
      index % 5 === 0
        ? `Answer ${index + 1} with code:\n\n\`\`\`ts\nconst n = ${index};\n\`\`\``
        : `Answer ${index + 1}: **fine**.`,
  });
  await page.goto(app.url);
  await expect(page.getByRole('heading', { level: 3, name: 'Long history' })).toBeVisible();
  const list = page.getByRole('region', { name: 'Messages' });
  await expect(list.getByText('Answer 500: fine.')).toBeInViewport();
  expect(await page.locator('.message-row').count()).toBeLessThan(60);

  // Scroll to the very top: the first exchange renders, the last leaves the DOM.
  for (let attempt = 0; attempt < 20 && !(await list.getByText('Question 1', { exact: true }).isVisible()); attempt++) {
    await list.evaluate((element) => element.scrollTo({ top: 0 }));
    await page.waitForTimeout(50);
  }
  await expect(list.getByText('Question 1', { exact: true })).toBeInViewport();
  await expect(list.getByText('Answer 500: fine.')).toHaveCount(0);
  expect(await page.locator('.message-row').count()).toBeLessThan(60);
  await page.screenshot({ path: 'test-results/screens/chat-long-history.png' });
});
