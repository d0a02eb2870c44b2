/**
 * The rendering of texts Markdown has nothing to do with, written without the renderer
 * (src/client/ui/rich-text/inert.ts): whatever it writes must be what the renderer writes
 * (markdown-it, DOMPurify, serialised), or the server's first screen and the client's later
 * renders would differ; and the texts posts are mostly made of must qualify, or nothing is saved.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderInertText } from '../../src/client/ui/rich-text/inert.ts';
import { renderRichText } from '../../src/client/ui/rich-text/renderer.ts';

/** Pieces of text: sentences, and every character or sequence with a meaning somewhere in Markdown. */
const PIECES = [
  '线上服务', 'Full GC 频繁', '教训：', '。', '，', '💪', '👨‍👩‍👧', 'JDK 21', 'a', 'Z', '7', '2024', '(', ')', '.', ',', ':', ';', '/',
  '"', "'", '?', '%', '@', '^', '{', '}', '-', '+', '*', '=', '_', '#', '>', '<', '`', '~', '|', '$', '!', '[', ']', '&', '\\',
  'http://a.cn', 'https://b.com/x', 'HTTP:', ' ', '  ', '   ', '    ', '\n', '\n\n', '\r\n', '\r', '\t', '\u00a0', '\u3000',
  '\u2028', '\u200b', '\u000b', '\u0000', '\u0007', '\u007f', '\u0085', '1.', '2)', '---', '===', '```', '~~~', '$$', '&amp;', '&#39;',
  // Whole constructs, so the generator meets them often.
  '$x$', '*em*', '**b**', '_u_', '`c`', '[t](/x)', '![a](/img/1)', '~~s~~', '<b>', '\\*', '&lt;', 'a|b\n:-|-:', '- ', '# ', '> ',
];

/** What most posts are: sentences, spaces and line breaks (no Markdown at all). */
const SENTENCE_PIECES = ['线上服务', 'Full GC 频繁', '教训：', '。', '，', '💪', 'JDK 21', '(G1)', 'a.b', '"引号"', "It's", '太棒了!', 'a -> b', ' ', '  ', '\n', '\n\n', '\r\n', ' \n'];
const sentences = fc.array(fc.constantFrom(...SENTENCE_PIECES), { minLength: 1, maxLength: 24 }).map((pieces) => pieces.join(''));

/** Sentences with now and then any piece at all: each rule that leaves a text to the renderer meets texts it alone decides. */
const anyText = fc
  .array(fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...SENTENCE_PIECES) }, { weight: 1, arbitrary: fc.constantFrom(...PIECES) }), {
    maxLength: 24,
  })
  .map((pieces) => pieces.join(''));

describe('a text Markdown has nothing to do with', () => {
  it('is written exactly as the renderer writes it, or left to the renderer', async () => {
    let written = 0;
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        const inert = renderInertText(text);
        if (inert === undefined) return;
        written += 1;
        expect(inert).toBe((await renderRichText(text)).html);
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the written case often enough for the check to mean something.
    expect(written).toBeGreaterThan(100);
  });

  it('covers sentences with line breaks and blank lines, as the renderer writes them', async () => {
    await fc.assert(
      fc.asyncProperty(sentences, async (text) => {
        // Four spaces before a line's words make it code.
        fc.pre(!/(?:^|\n) {4,}\S/.test(text));
        const inert = renderInertText(text);
        expect(inert).toBeDefined();
        expect(inert).toBe((await renderRichText(text)).html);
      }),
      { numRuns: 500 },
    );
  });

  it('writes paragraphs and line breaks, and leaves Markdown, links and other white space to the renderer', () => {
    expect(renderInertText('第一行\n第二行  \n\n\n 第二段 ')).toBe('<p>第一行<br>\n第二行</p>\n<p>第二段</p>\n');
    expect(renderInertText('调用链 a -> b，"好"!')).toBe('<p>调用链 a -&gt; b，"好"!</p>\n');
    expect(renderInertText('')).toBe('');
    for (const text of ['**粗体**', '- 列表', '2024. 年', '标题\n---', '    代码', '见 https://a.cn', '$x$', 'a & b', '缩进\u3000', 'a\tb']) {
      expect(renderInertText(text), text).toBeUndefined();
    }
  });
});
