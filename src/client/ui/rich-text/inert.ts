/**
 * The rendering of a text Markdown has nothing to do with, written without the renderer: most
 * posts and comments are sentences and line breaks, and for those the renderer (markdown-it,
 * DOMPurify: two chunks, and their work after a post's first paint) writes paragraphs and `<br>`s
 * alone. The server renders them so in a page's first screen, the client hydrates the same, and
 * the renderer loads only for a text that needs it.
 *
 * A text qualifies only when nothing in it can start Markdown, math, a link or an entity, and its
 * only white space is spaces and line breaks (other white space is trimmed or kept by rules of
 * its own); anything else is the renderer's. tests/unit/rich-text-inert.test.ts checks, over
 * generated texts, that what this writes is what the renderer writes.
 */

/**
 * Anywhere in a text: the characters of emphasis, code, links and images, math, strikethrough,
 * tables, HTML and autolinks, entities, escapes. (`>` is Markdown's only at a line's start.)
 */
const INLINE_SYNTAX = /[\\`*_[\]<&$~|]|https?:/i;
/** White space other than the space and the line break, and control characters. */
const OTHER_WHITE_SPACE = /[^\S \n]|(?!\n)\p{Cc}/u;
/** At a line's start, after its spaces: a list, a heading, a quote, a fence, a rule or a setext underline. */
const BLOCK_START = /^(?:[-+*=_#>`~|<$]|\d{1,9}[.)])/;
/** Four spaces or more at a line's start: an indented code block. */
const CODE_INDENT = /^ {4}/;

/** The HTML the renderer writes for `text` (see the file's comment), or undefined when the text needs the renderer. */
export function renderInertText(text: string): string | undefined {
  const normalised = text.replace(/\r\n?/g, '\n');
  if (INLINE_SYNTAX.test(normalised) || OTHER_WHITE_SPACE.test(normalised)) return undefined;
  const paragraphs: string[][] = [];
  let paragraph: string[] | undefined;
  for (const line of normalised.split('\n')) {
    const content = line.trim();
    if (!content) {
      paragraph = undefined;
      continue;
    }
    if (CODE_INDENT.test(line) || BLOCK_START.test(content)) return undefined;
    if (!paragraph) paragraphs.push((paragraph = []));
    // Escaped as the sanitizer's serialisation writes it (`"` and `'` stay as they are).
    paragraph.push(content.replaceAll('>', '&gt;'));
  }
  return paragraphs.map((lines) => `<p>${lines.join('<br>\n')}</p>\n`).join('');
}
