// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText, fallbackGraphemes, graphemes, graphemeLength, SINGLE_UNIT_GRAPHEMES, eachGrapheme, isLongerThan, textLength } from '#shared/text-length.ts';
import { DEFAULT_CUT_LENGTH } from '#shared/constants.ts';
import { withCountedSegmenters } from './fixtures.ts';

describe('textLength', () => {
  it('counts ASCII 1, other characters 2, emoji 4', () => {
    expect(textLength('')).toBe(0);
    expect(textLength('abc 123')).toBe(7);
    expect(textLength('你好')).toBe(4);
    expect(textLength('a你')).toBe(3);
    expect(textLength('😀')).toBe(4);
    expect(textLength('é')).toBe(2);
    expect(textLength('，。')).toBe(4);
  });

  it('counts an emoji with modifiers, ZWJ parts, flags or keycaps once', () => {
    expect(textLength('👍🏽')).toBe(4); // skin tone
    expect(textLength('👨‍👩‍👧‍👦')).toBe(4); // ZWJ family
    expect(textLength('🏳️‍🌈')).toBe(4);
    expect(textLength('🇨🇳')).toBe(4); // flag
    expect(textLength('1️⃣')).toBe(4); // keycap
    expect(textLength('❤️')).toBe(4); // emoji presentation selector
    expect(textLength('a😀b')).toBe(6);
    expect(textLength('e\u0301')).toBe(2); // combining accent: one non-ASCII character
  });

  it('treats text-presentation symbols as plain non-ASCII', () => {
    expect(textLength('©')).toBe(2);
  });

  it('splits graphemes the same way without Intl.Segmenter', () => {
    for (const sample of ['👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇨🇳🇯🇵', '🇨🇳🇯🇵🇺', '1️⃣', 'e\u0301x', 'ab你😀', '']) {
      expect(fallbackGraphemes(sample)).toEqual(graphemes(sample));
    }
  });
});

describe('graphemes without Intl.Segmenter for plain text', () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const count = (s: string) => [...segmenter.segment(s)].length;

  it('takes only characters that are a whole character of their own and never join a neighbour', () => {
    const checked: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if (!SINGLE_UNIT_GRAPHEMES.test(c)) continue;
      checked.push(c);
      // Joined to what comes before (a mark), after (a prepend), or to its own kind (Hangul jamo,
      // regional indicators, CR LF), Intl.Segmenter would count fewer.
      expect(count(`a${c}a`), `U+${code.toString(16)}`).toBe(3);
      expect(count(`一${c}一`), `U+${code.toString(16)}`).toBe(3);
      expect(count(`${c}${c}`), `U+${code.toString(16)}`).toBe(2);
      expect(count(`${c}\n`), `U+${code.toString(16)}`).toBe(2);
      expect(graphemeLength(c), `U+${code.toString(16)}`).toBe(code > 0x7f ? 2 : 1);
    }
    expect(checked.length).toBeGreaterThan(21_000);
    for (const joins of ['\r', '\u0301', '\u302e', '\uff9e', '\u200d', '\ufe0f', '\ud83d', '\u1100', '\uac00']) {
      expect(SINGLE_UNIT_GRAPHEMES.test(joins)).toBe(false);
    }
  });

  it('cuts and counts plain Chinese and ASCII text as Intl.Segmenter does, without making one', async () => {
    await withCountedSegmenters(() => import('#shared/text-length.ts'), (fresh, made) => {
      const text = '今天学习了 React 19 的 transition，感觉很有意思！\n第二行：useDeferredValue。'.repeat(4);
      expect(fresh.graphemes(text)).toEqual([...segmenter.segment(text)].map((part) => part.segment));
      expect(fresh.cutText(text, 40)).toBe(cutText(text, 40));
      expect(fresh.textLength(text)).toBe(textLength(text));
      expect(made()).toBe(0);
      // A cut that ends before the first emoji (or other joined character) needs no segmenter.
      const endsInEmoji = `${text}“加油”——继续 💪`;
      expect(fresh.cutText(endsInEmoji, 60)).toBe(cutText(endsInEmoji, 60));
      expect(fresh.isLongerThan(endsInEmoji, 60)).toBe(true);
      // Nor does a text too short to reach the length even if all of it were emoji.
      expect(fresh.isLongerThan('继续加油 💪', 150)).toBe(false);
      expect(made()).toBe(0);
      // Emoji, flags, keycaps and ZWJ sequences need none either.
      expect(fresh.textLength('好👍🏽')).toBe(6);
      expect(fresh.graphemes('加油💪🏻👨‍👩‍👧🇨🇳1️⃣')).toEqual(['加', '油', '💪🏻', '👨‍👩‍👧', '🇨🇳', '1️⃣']);
      expect(fresh.cutText('👍'.repeat(50), 20)).toBe(`${'👍'.repeat(5)}...`);
      expect(made()).toBe(0);
      // Nor do line ends of CR LF or CR alone.
      const lines = '第一行\r\n第二行\r第三行\r\r\n'.repeat(3);
      expect(fresh.graphemes(lines)).toEqual([...segmenter.segment(lines)].map((part) => part.segment));
      expect(fresh.textLength(lines)).toBe(textLength(lines));
      expect(made()).toBe(0);
      // A letter with a combining accent does.
      expect(fresh.textLength('cafe\u0301')).toBe(5);
      expect(made()).toBe(1);
    });
  });
});

describe('graphemes without Intl.Segmenter for text with emoji', () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const segmented = (s: string) => Array.from(segmenter.segment(s), (part) => part.segment);
  const hex = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16)).join(' ');
  const MARKS = ['\ufe0f', '\ufe0e', '\u{1f3fb}', '\u{1f3ff}', '\u{e0067}', '\u{e007f}', '\u20e3', '\u200d'];
  const EMOJI = ['👍', '😀', '❤', '🏴', '©', '‼', '〽', '🇨', '🇳', '#', '1'];

  it('splits each plain character beside emoji marks, joiners and pictographs as Intl.Segmenter does', () => {
    const differ: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if (!SINGLE_UNIT_GRAPHEMES.test(c)) continue;
      for (const mark of MARKS) {
        for (const sample of [`${c}${mark}${c}`, `👍${mark}${c}`, `👍\u200d${c}${mark}`]) {
          if (graphemes(sample).join('|') !== segmented(sample).join('|')) differ.push(hex(sample));
        }
      }
    }
    expect(differ).toEqual([]);
  }, 30_000);

  it('splits any mix of plain characters, emoji, their marks and other characters as Intl.Segmenter does', () => {
    // Plain characters, pictographs (some of them plain characters too), regional indicators,
    // emoji marks and the joiner, controls (CR among them), and characters that send the rest to
    // Intl.Segmenter: a combining accent, Hangul jamo, a lone surrogate, a spacing mark, a prepend.
    const pieces = ['a', ' ', '好', '，', '\n', '\t', '\u00ad', ...EMOJI, '🇯', '🇵', '💻', '🔥', ...MARKS, '\u0301', '\r', '\u1100', '\u1161', '\ud83d', '\u0903', '\u0600'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(graphemes(text), hex(text)).toEqual(segmented(text));
        expect([...eachGrapheme(text)], hex(text)).toEqual(segmented(text));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('eachGrapheme', () => {
  it('gives the characters graphemes gives, where a plain run meets a joined character too', () => {
    for (const sample of ['', 'abc', '好的', 'e\u0301x', 'abe\u0301', '\u0301ab', '你好👍🏽再见', '👨‍👩‍👧‍👦a', 'ab🇨🇳🇯🇵', 'a\r\nb', '1️⃣2', '“引号”…']) {
      expect([...eachGrapheme(sample)], sample).toEqual(graphemes(sample));
    }
  });
});

describe('isLongerThan', () => {
  it('answers as textLength does, at the length and on either side of it', () => {
    for (const sample of ['', 'abc', '好的', '⭐', '⭐⭐', '你好👍🏽再见', '👨‍👩‍👧‍👦a', 'ab🇨🇳🇯🇵', 'e\u0301x', '“引号”…']) {
      const length = textLength(sample);
      for (const limit of [Math.max(length - 1, 0), length, length + 1]) expect(isLongerThan(sample, limit), `${sample} ${limit}`).toBe(length > limit);
    }
  });
});

describe('cutText', () => {
  it('returns text that fits unchanged', () => {
    expect(cutText('hello', 5)).toBe('hello');
    expect(cutText('', 3)).toBe('');
  });

  it('cuts by text-length units and appends ...', () => {
    expect(cutText('hello world', 5)).toBe('hello...');
    expect(cutText('你好世界', 5)).toBe('你好...');
    expect(cutText('ab😀cd', 5)).toBe('ab...');
    expect(cutText('ab😀cd', 6)).toBe('ab😀...');
  });

  it('never splits an emoji sequence', () => {
    expect(cutText('👨‍👩‍👧‍👦👨‍👩‍👧‍👦', 6)).toBe('👨‍👩‍👧‍👦...');
  });

  it('defaults to the spec cut length of 150', () => {
    expect(DEFAULT_CUT_LENGTH).toBe(150);
    expect(cutText('a'.repeat(150))).toBe('a'.repeat(150));
    expect(cutText('a'.repeat(151))).toBe(`${'a'.repeat(150)}...`);
    expect(cutText('中'.repeat(80))).toBe(`${'中'.repeat(75)}...`);
  });
});
