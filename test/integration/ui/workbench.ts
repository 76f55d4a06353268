// Drives the VS Code web workbench like a person: palette, output panel, views, status bar, webviews.
import type { Browser, Frame, Page } from 'playwright-core';

export const OUTPUT_DIR = '.test-output';

export interface Workbench {
  browser: Browser;
  page: Page;
  url: string;
}

/** Waits until the workbench has loaded and the activity bar is there. */
export async function waitForWorkbench(page: Page): Promise<void> {
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  // The extension's contributions are registered once its activity-bar entry exists; before that the
  // palette would open without our commands in it.
  await page
    .locator('.activitybar .action-item a[aria-label^="Alephium"]')
    .first()
    .waitFor({ state: 'visible', timeout: 90_000 });
}

/** Opens the command palette; right after load the workbench may drop the first key press, so retry (bounded). */
async function openPalette(page: Page): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; attempt <= 6; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch {
      if (attempt === 6) throw new Error('The command palette did not open after 6 presses of F1.');
    }
  }
}

/** Runs a command by its palette title, exactly as a person would type it. */
export async function runCommandByTitle(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  // The palette may rank a similar title first ("Focus on Watched Contracts View" for "Watch Contract"):
  // choose the row whose label is the command's title, not the first one.
  const row = page.locator(`.quick-input-list .monaco-list-row[aria-label^="${title}"]`).first();
  // The palette closes when focus moves (a view or a terminal taking focus as it renders, seen in full
  // runs, before or after the title was typed): open it again, a bounded number of times, and say so in
  // the log so a pattern would show.
  for (let attempt = 1; ; attempt++) {
    await openPalette(page);
    try {
      await input.fill(`>${title}`, { timeout: 5_000 });
      await row.click({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`[ui] the palette closed before "${title}" was chosen; opening it again (${attempt})`);
      await page.keyboard.press('Escape');
    }
  }
}

/**
 * Hides the panel (Output, Terminal) when it is shown. "View: Hide Panel" is in the palette only while the
 * panel is visible, so asking for it otherwise only spent the palette helper's retries.
 */
export async function hidePanel(page: Page): Promise<void> {
  if (
    !(await page
      .locator('#workbench\\.parts\\.panel')
      .isVisible()
      .catch(() => false))
  )
    return;
  await runCommandByTitle(page, 'View: Hide Panel').catch(() => page.keyboard.press('Escape'));
}

/** Text of all frames, webviews included (they are nested iframes). */
export async function textOfAllFrames(page: Page): Promise<string> {
  const texts = await Promise.all(
    page
      .frames()
      .map((frame: Frame): Promise<string> =>
        frame.evaluate<string>('document.body ? document.body.innerText : ""').catch(() => ''),
      ),
  );
  return texts.join('\n');
}
