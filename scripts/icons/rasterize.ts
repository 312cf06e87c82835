import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/**
 * Chromium renders the SVG: it is already here for the e2e tests, draws SVG exactly as the app's
 * own engine does, and needs no native image library (those ship per-platform binaries that this
 * registry does not always carry).
 */
export function chromiumExecutable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env['CHROMIUM_PATH'];
  if (configured !== undefined && configured !== '') return configured;
  // Debian's Chromium (the e2e tests use it too); elsewhere Playwright's own browser, if installed.
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** One transparent PNG per size, the SVG scaled to fill it. */
export async function rasterizeSvg(
  svg: string,
  sizes: readonly number[],
  executablePath: string | undefined = chromiumExecutable(),
): Promise<Map<number, Buffer>> {
  const browser = await chromium.launch({
    ...(executablePath === undefined ? {} : { executablePath }),
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const rendered = new Map<number, Buffer>();
    for (const size of sizes) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(
        `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
      );
      rendered.set(size, await page.screenshot({ type: 'png', omitBackground: true }));
    }
    return rendered;
  } finally {
    await browser.close();
  }
}
