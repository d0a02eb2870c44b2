/**
 * What each browser of a test showed last, printed when the test fails: every page's address,
 * size, focused element and visible text, as it was when its browser closed (or at the failure,
 * for one still open). A failure seen once on a busy CI machine is then read from the log rather
 * than guessed at.
 */
import type { BrowserContext, Page } from 'playwright-core';

const open = new Set<BrowserContext>();
const looks: string[] = [];

/** Text kept of a page: its start, where the page's own content is, and its end, where layers open. */
const HEAD_CHARS = 1_500;
const TAIL_CHARS = 700;
const LOOK_TIMEOUT_MS = 2_000;

export function watchBrowser(context: BrowserContext): void {
  open.add(context);
}

/** Called as a browser closes: what it shows now is kept for the test's failure, if it fails. */
export async function lookBeforeClosing(context: BrowserContext): Promise<void> {
  if (!open.delete(context)) return;
  looks.push(...(await Promise.all(context.pages().map(describePage))));
}

export function forgetLooks(): void {
  looks.length = 0;
}

/** Every look kept during the test, then the browsers still open. */
export async function lastLooks(): Promise<string> {
  const stillOpen = await Promise.all([...open].flatMap((context) => context.pages().map(describePage)));
  return [...looks, ...stillOpen].join('\n\n') || '(no browser)';
}

async function describePage(page: Page): Promise<string> {
  const size = page.viewportSize();
  const seen = page
    .evaluate(
      ([head, tail]) => {
        const text = (document.body?.innerText ?? '').replace(/\s+/g, ' ').trim();
        const shown = text.length > head + tail ? `${text.slice(0, head)} … ${text.slice(-tail)}` : text;
        const active = document.activeElement;
        const focused = active && active !== document.body ? `<${active.tagName.toLowerCase()}> ${active.getAttribute('aria-label') ?? active.textContent?.trim().slice(0, 40) ?? ''}` : 'none';
        return `focused: ${focused}\n${shown}`;
      },
      [HEAD_CHARS, TAIL_CHARS] as const,
    )
    .catch((error: unknown) => `(not readable: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  const timedOut = new Promise<string>((resolve) => setTimeout(() => resolve(`(no answer in ${LOOK_TIMEOUT_MS} ms)`), LOOK_TIMEOUT_MS).unref());
  return `${page.url()} at ${size ? `${size.width}x${size.height}` : 'its window size'}, ${await Promise.race([seen, timedOut])}`;
}
