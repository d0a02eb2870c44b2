/**
 * Whether a text holds no Markdown: nothing in it can start Markdown, math, a link or an entity,
 * and its only white space is spaces and line breaks (other white space is trimmed or kept by
 * rules of its own). Such a text is written without the renderer (inert.ts), and a card shows it
 * without remove-markdown (features/feed/card-text.ts), which would leave it as it is.
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

/** Whether nothing in the text is Markdown's, math's, a link's or an entity's. */
export function holdsNoMarkdown(text: string): boolean {
  const normalised = text.replace(/\r\n?/g, '\n');
  if (INLINE_SYNTAX.test(normalised) || OTHER_WHITE_SPACE.test(normalised)) return false;
  return normalised.split('\n').every((line) => {
    const content = line.trim();
    return !content || !(CODE_INDENT.test(line) || BLOCK_START.test(content));
  });
}
