import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Page } from '@playwright/test';
import { reply } from './fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from './fixtures/scripted-llm-server';
import { expect, scriptedProviderSettings, startFamiliar, test } from './fixtures/familiar-app';

/** Settings whose OpenAI-compatible model has its "Supports images" switch on. */
const visionSettings = (llm: ScriptedLlmServer) => {
  const { provider } = scriptedProviderSettings(llm);
  return { provider: { ...provider, vision: true } };
};

/**
 * Pastes a picture into the composer as Ctrl/Cmd+V does: a paste event whose clipboard holds a PNG
 * file (drawn here, 40×30, one colour), the way a screenshot arrives.
 */
async function pastePicture(page: Page, name: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message to Familiar' });
  await box.focus();
  await box.evaluate(async (element, fileName) => {
    const canvas = new OffscreenCanvas(40, 30);
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('no canvas');
    context.fillStyle = '#3a7';
    context.fillRect(0, 0, 40, 30);
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    const transfer = new DataTransfer();
    transfer.items.add(new File([blob], fileName, { type: 'image/png' }));
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, name);
}

/** A picture waiting in the composer, by its file name. */
const attachedImage = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Attached images' }).getByRole('img', { name });

/** The OpenAI-compatible user message's image parts (`image_url` with a data URL) in a recorded request. */
function imageUrlsOf(messages: readonly unknown[]): string[] {
  return messages.flatMap((message) => {
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (role !== 'user' || !Array.isArray(content)) return [];
    return (content as { type?: string; image_url?: { url?: string } }[])
      .filter((part) => part.type === 'image_url')
      .map((part) => part.image_url?.url ?? '');
  });
}

test('a pasted picture is shown in the composer and reaches the model as an image part', async ({ page, llm }) => {
  const { app, stop } = await startFamiliar({ settings: visionSettings(llm) });
  try {
    llm.enqueue(reply.text('A green rectangle.'));
    await page.goto(app.url);
    await pastePicture(page, 'screenshot.png');
    const attached = page.getByRole('list', { name: 'Attached images' });
    await expect(attached.getByRole('img', { name: 'screenshot.png' })).toBeVisible();
    // Removing one by its button, then pasting again: the button is reachable and named.
    await page.getByRole('button', { name: 'Remove image screenshot.png' }).click();
    await expect(attached).toHaveCount(0);
    await pastePicture(page, 'screenshot.png');
    const box = page.getByRole('textbox', { name: 'Message to Familiar' });
    await box.fill('What is in this picture?');
    await box.press('Enter');

    const reply_ = page.getByRole('article', { name: 'Familiar' });
    await expect(reply_).toHaveAttribute('data-status', 'complete', { timeout: 15_000 });
    const request = llm.requests.at(-1);
    const urls = imageUrlsOf(request?.messages ?? []);
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    // The words travel beside the picture, in the same user message.
    expect(JSON.stringify(request?.messages)).toContain('What is in this picture?');
    // The transcript shows the picture as a thumbnail that opens large.
    const sent = page.getByRole('article', { name: 'You' });
    await expect(sent.getByRole('img', { name: 'screenshot.png' })).toBeVisible();
    await sent.getByRole('button', { name: 'Open image screenshot.png' }).click();
    const viewer = page.getByRole('dialog', { name: 'Image screenshot.png' });
    await expect(viewer.getByRole('img', { name: 'screenshot.png' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
  } finally {
    await stop();
  }
});

/** A PNG drawn in the page (a canvas, one colour): its bytes, as a file picked or dropped would hold. */
async function drawnPng(page: Page, width: number, height: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ([w, h]) => {
      const canvas = new OffscreenCanvas(w, h);
      const context = canvas.getContext('2d');
      if (context === null) throw new Error('no canvas');
      context.fillStyle = '#a37';
      context.fillRect(0, 0, w, h);
      const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
      return btoa(String.fromCharCode(...bytes));
    },
    [width, height] as const,
  );
  return Buffer.from(base64, 'base64');
}

/** Sends the composer's text and pictures, waits for the answer, and gives the image URLs the model got. */
async function sendAndReadImages(page: Page, llm: ScriptedLlmServer, text: string): Promise<string[]> {
  const box = page.getByRole('textbox', { name: 'Message to Familiar' });
  await box.fill(text);
  await box.press('Enter');
  await expect(page.getByRole('article', { name: 'Familiar' })).toHaveAttribute('data-status', 'complete', {
    timeout: 15_000,
  });
  return imageUrlsOf(llm.requests.at(-1)?.messages ?? []);
}

/**
 * Familiar on a vision model that will answer `answer`, opened in the page, with a picture of
 * width × height drawn there for `body` to attach; Familiar is stopped afterwards.
 */
async function withDrawnPicture(
  page: Page,
  llm: ScriptedLlmServer,
  answer: string,
  [width, height]: readonly [number, number],
  body: (png: Buffer) => Promise<void>,
): Promise<void> {
  const { app, stop } = await startFamiliar({ settings: visionSettings(llm) });
  try {
    llm.enqueue(reply.text(answer));
    await page.goto(app.url);
    await body(await drawnPng(page, width, height));
  } finally {
    await stop();
  }
}

test('the attach button picks a picture that reaches the model as an image part', async ({ page, llm }) => {
  await withDrawnPicture(page, llm, 'A gradient.', [24, 16], async (png) => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach image' }).click();
    await (await chooser).setFiles({ name: 'picked.png', mimeType: 'image/png', buffer: png });
    await expect(attachedImage(page, 'picked.png')).toBeVisible();
    const urls = await sendAndReadImages(page, llm, 'What did I pick?');
    // The very bytes picked: small enough that nothing is scaled.
    expect(urls).toEqual([`data:image/png;base64,${png.toString('base64')}`]);
  });
});

test('a picture dropped on the composer is attached and reaches the model as an image part', async ({ page, llm }) => {
  await withDrawnPicture(page, llm, 'A dropped gradient.', [20, 10], async (png) => {
    // A drop as the browser delivers one: dragenter, dragover, drop, with the file in a DataTransfer.
    const transfer = await page.evaluateHandle((base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
      return data;
    }, png.toString('base64'));
    const box = page.getByRole('textbox', { name: 'Message to Familiar' });
    for (const type of ['dragenter', 'dragover', 'drop']) {
      await box.dispatchEvent(type, { dataTransfer: transfer });
    }
    await expect(attachedImage(page, 'dropped.png')).toBeVisible();
    const urls = await sendAndReadImages(page, llm, 'And this one?');
    expect(urls).toEqual([`data:image/png;base64,${png.toString('base64')}`]);
    // Dropped on the composer, it is a picture for the chat, not an upload into the workspace.
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test('a model without vision refuses a picture in the composer and nothing is sent', async ({ page, llm }) => {
  const { app, stop } = await startFamiliar({ settings: scriptedProviderSettings(llm) });
  try {
    await page.goto(app.url);
    await pastePicture(page, 'diagram.png');
    await expect(page.getByRole('list', { name: 'Attached images' }).getByRole('img')).toHaveCount(1);
    await expect(page.getByRole('alert')).toContainText('The model scripted-model does not take images');
    const box = page.getByRole('textbox', { name: 'Message to Familiar' });
    await box.fill('Describe it');
    await box.press('Enter');
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await expect(page.getByRole('article', { name: 'You' })).toHaveCount(0);
    expect(llm.requests).toHaveLength(0);
    // Removing the picture lifts the refusal.
    await page.getByRole('button', { name: 'Remove image diagram.png' }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  } finally {
    await stop();
  }
});

test('a picture survives a restart: the transcript shows it and the model is sent it again', async ({ page, llm }) => {
  const first = await startFamiliar({ settings: visionSettings(llm) });
  const folder = dirname(first.app.home);
  try {
    llm.enqueue(reply.text('Noted.'));
    await page.goto(first.app.url);
    await pastePicture(page, 'kept.png');
    await page.getByRole('textbox', { name: 'Message to Familiar' }).fill('Remember this picture');
    await page.getByRole('textbox', { name: 'Message to Familiar' }).press('Enter');
    await expect(page.getByRole('article', { name: 'Familiar' })).toHaveAttribute('data-status', 'complete', {
      timeout: 15_000,
    });
    await first.stop({ keep: true });

    const second = await startFamiliar({ reuse: folder });
    try {
      llm.enqueue(reply.text('Still a green rectangle.'));
      await page.goto(second.app.url);
      await page
        .getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: /^Remember this picture/ })
        .click();
      const sent = page.getByRole('article', { name: 'You' });
      const thumbnail = sent.getByRole('img', { name: 'kept.png' });
      await expect(thumbnail).toBeVisible();
      expect(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(40);
      const box = page.getByRole('textbox', { name: 'Message to Familiar' });
      await box.fill('And now?');
      await box.press('Enter');
      await expect(page.getByRole('article', { name: 'Familiar' }).last()).toHaveAttribute('data-status', 'complete', {
        timeout: 15_000,
      });
      // The history rebuilt after the restart still carries the picture, read back from the home.
      expect(imageUrlsOf(llm.requests.at(-1)?.messages ?? [])).toHaveLength(1);
    } finally {
      await second.stop();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
