/**
 * The rendering of a text Markdown has nothing to do with, written without the renderer: most
 * posts and comments are sentences and line breaks, and for those the renderer (markdown-it,
 * DOMPurify: two chunks, and their work after a post's first paint) writes paragraphs and `<br>`s
 * alone. The server renders them so in a page's first screen, the client hydrates the same, and
 * the renderer loads only for a text that needs it.
 *
 * A text qualifies when it holds no Markdown (holds-no-markdown.ts); anything else is the
 * renderer's. tests/unit/rich-text-inert.test.ts checks, over generated texts, that what this
 * writes is what the renderer writes.
 */
import { holdsNoMarkdown } from './holds-no-markdown.ts';

/** The HTML the renderer writes for `text` (see the file's comment), or undefined when the text needs the renderer. */
export function renderInertText(text: string): string | undefined {
  if (!holdsNoMarkdown(text)) return undefined;
  const paragraphs: string[][] = [];
  let paragraph: string[] | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const content = line.trim();
    if (!content) {
      paragraph = undefined;
      continue;
    }
    if (!paragraph) paragraphs.push((paragraph = []));
    // Escaped as the sanitizer's serialisation writes it (`"` and `'` stay as they are).
    paragraph.push(content.replaceAll('>', '&gt;'));
  }
  return paragraphs.map((lines) => `<p>${lines.join('<br>\n')}</p>\n`).join('');
}
