import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { reply } from './fixtures/scripted-llm-server';
import { expect, test } from './fixtures/familiar-app';
import { openSettingsSection, sendMessage } from './fixtures/page-helpers';

test.use({ provider: 'scripted' });

test('a SearXNG set up in Settings → Web brings web_search, which the model then uses', async ({
  page: browser,
  app,
  llm,
}) => {
  // The user's SearXNG lives on 127.0.0.1, never another address.
  const queries: string[] = [];
  const searx = createServer((req, res) => {
    queries.push(req.url ?? '?');
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        results: [{ title: 'River otters', url: 'https://otters.example/', content: 'Otters hold hands.' }],
      }),
    );
  });
  await new Promise<void>((resolve) => searx.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(searx.address() as AddressInfo).port}`;
  try {
    await browser.goto(app.url);
    const web = await openSettingsSection(browser, 'Web');
    await web.getByRole('combobox', { name: 'Search service for web_search' }).selectOption('searxng');
    await web.getByRole('textbox', { name: 'SearXNG address' }).fill(origin);
    await web.getByRole('button', { name: 'Save search service' }).click();
    await expect(web.getByRole('status')).toHaveText('web_search is offered to the assistant.');
    const stored = JSON.parse(await readFile(join(app.home, 'settings.json'), 'utf8')) as {
      web: { search: unknown };
    };
    expect(stored.web.search).toEqual({ service: 'searxng', searxngUrl: origin });
    await browser.keyboard.press('Escape');

    llm.enqueue(
      reply.toolCall('web_search', { query: 'otters' }, 'Searching.', 'call-search'),
      reply.text('Otters hold hands.'),
    );
    await sendMessage(browser, 'Search the web for otters.');
    await expect(browser.getByRole('article', { name: 'Familiar' }).last()).toContainText('Otters hold hands.');
    expect(llm.requests[0]?.toolNames).toContain('web_search');
    expect(queries).toEqual(['/search?q=otters&format=json']);
    expect(JSON.stringify(llm.requests[1]?.messages)).toContain('https://otters.example/');
    await expect(browser.locator('details.tool-card', { hasText: 'web_search' }).locator('.tool-outcome')).toHaveText(
      'ok',
    );
  } finally {
    searx.closeAllConnections();
    await new Promise<void>((resolve) => searx.close(() => resolve()));
  }
});
