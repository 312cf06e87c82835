import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { openConversationStore } from '../main/domain/conversations/conversation-store';
import { newId } from '../main/domain/conversations/ids';

/**
 * Issue 6's "a 1,000-message conversation scrolls smoothly", measured: the built app (browser mode)
 * opens a conversation of N messages written through the real conversation store, then Chromium
 * scrolls it from the end to the start, 300 px per animation frame, and we record every frame's
 * duration. Reported per size: frames, median and 95th-percentile frame time, frames over 50 ms,
 * the most message rows ever in the DOM, and the p95 ratio 1,000 : 20 messages (1.0 = a long
 * history costs nothing extra). Run: npm run build && npx jiti bench/chat-scroll.ts
 */

const SIZES = [20, 1_000];
const serveScript = join(import.meta.dirname, '..', 'out', 'main', 'serve.js');

const answer = (index: number) =>
  index % 4 === 0
    ? `Answer ${index} with **bold** text and code:\n\n\`\`\`ts\nconst value = ${index};\nconsole.log(value);\n\`\`\`\n\nDone.`
    : `Answer ${index}: a paragraph of ordinary length that wraps onto a second line in a normal window, with a [link](https://example.com).`;

async function seed(home: string, messages: number): Promise<void> {
  const store = await openConversationStore({ conversations: join(home, 'conversations'), trash: join(home, 'trash') });
  const created = await store.create();
  if (!created.ok) throw new Error(created.error.message);
  const { id } = created.value;
  for (let index = 0; index < messages / 2; index++) {
    const userMessageId = newId('m');
    const turnId = newId('t');
    await store.append(id, [
      { type: 'user', messageId: userMessageId, text: `Question ${index}` },
      { type: 'turn-start', turnId, userMessageId, retryOf: null },
      { type: 'text', turnId, step: 0, text: answer(index) },
      { type: 'turn-end', turnId, status: 'complete', finishReason: 'stop' },
    ]);
  }
  await store.close();
  // A provider must be set or the page shows the first-run setup instead of the conversation.
  const provider = { kind: 'openai-compatible', model: 'none', baseUrl: 'http://127.0.0.1:9/v1' };
  await writeFile(join(home, 'settings.json'), JSON.stringify({ provider }));
}

async function serve(home: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [serveScript, '--port', '0'], {
    env: { ...process.env, FAMILIAR_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/**
 * Runs in the page (a string because this file is type-checked for Node, without the DOM): scrolls
 * up one step per animation frame and records each frame's duration.
 */
const scrollToStart = `new Promise((resolve) => {
  const list = document.querySelector('.message-list');
  const frames = [];
  let maxRows = 0;
  let last = performance.now();
  let atTop = 0;
  const step = (now) => {
    frames.push(now - last);
    last = now;
    maxRows = Math.max(maxRows, document.querySelectorAll('.message-row').length);
    list.scrollTop -= 300;
    if (list.scrollTop <= 0 && ++atTop > 5) resolve({ frames: frames.slice(1), maxRows });
    else requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const p95s: number[] = [];
try {
  for (const size of SIZES) {
    const home = await mkdtemp(join(tmpdir(), 'familiar-bench-scroll-'));
    await seed(home, size);
    const app = await serve(home);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(app.url);
      await page.locator('.message-row').first().waitFor();
      await page.waitForTimeout(500);
      const result = await page.evaluate<{ frames: number[]; maxRows: number }>(scrollToStart);
      const p95 = percentile(result.frames, 95);
      p95s.push(p95);
      console.log(
        `${String(size).padStart(5)} messages: ${result.frames.length} frames, median ${percentile(result.frames, 50).toFixed(1)} ms, ` +
          `p95 ${p95.toFixed(1)} ms, over 50 ms: ${result.frames.filter((frame) => frame > 50).length}, ` +
          `rows in DOM at most: ${result.maxRows}`,
      );
      await page.close();
    } finally {
      app.stop();
      await rm(home, { recursive: true, force: true });
    }
  }
  console.log(
    `p95 frame time ratio ${SIZES.at(-1)} : ${SIZES[0]} messages = ${((p95s[1] ?? 0) / (p95s[0] ?? 1)).toFixed(2)}x`,
  );
} finally {
  await browser.close();
}
