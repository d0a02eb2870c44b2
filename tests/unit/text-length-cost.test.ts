// @vitest-environment node
/**
 * Counting text is linear whatever the script, and stops once a limit is passed. Intl.Segmenter
 * costs the length of what it is given times the characters it yields, so the count hands it a
 * window at a time (SEGMENT_WINDOW): the splits equal those of the whole text, and the code
 * units handed to it, counted here, stay within a small multiple of the text's length for the
 * worst text of every field (tests/support/worst-texts.ts) at the longest the field takes.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '#shared/api.ts';
import { COMMENT_MAX_CHARS, CODE_MAX_CHARS, FEEDBACK_MAX_CHARS, NOTE_MAX_CHARS, POST_MAX_LENGTH } from '#shared/constants.ts';
import { graphemes, hasMoreGraphemesThan, isLongerThan, SEGMENT_WINDOW, textLength } from '#shared/text-length.ts';
import { checkComplaintText } from '../../src/server/services/complaints.ts';
import { ordinaryText, worstTexts } from '../support/worst-texts.ts';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const whole = (s: string) => Array.from(segmenter.segment(s), (part) => part.segment);

describe('counting a window at a time', () => {
  it('splits long texts as Intl.Segmenter splits the whole text, across every window edge', () => {
    const pieces = ['a', '好', '\n', '\r', '\r\n', '👍', '🏽', '\u200d', '🇨', '\u0301', 'क', '्', '\u0903', '\u1100', '\u1161', '\u11a8', '\u0600', '\ufe0f', '\ud83d'];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...pieces), fc.constantFrom(...pieces).map((piece) => piece.repeat(300))), { minLength: 20, maxLength: 200 }),
        (parts) => {
          const text = parts.join('');
          expect(graphemes(text)).toEqual(whole(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts the worst texts as the whole text is counted', () => {
    for (const [kind, text] of worstTexts(3000)) {
      const expected = whole(text);
      expect(graphemes(text), kind).toEqual(expected);
      expect(hasMoreGraphemesThan(text, expected.length), kind).toBe(false);
      expect(hasMoreGraphemesThan(text, expected.length - 1), kind).toBe(true);
      const length = textLength(text);
      expect(isLongerThan(text, length), kind).toBe(false);
      expect(isLongerThan(text, length - 1), kind).toBe(true);
    }
  });
});

describe('what counting costs, in code units handed to Intl.Segmenter', () => {
  let handed: number[];
  beforeEach(() => {
    handed = [];
    const segment = Intl.Segmenter.prototype.segment;
    vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (this: Intl.Segmenter, input: string) {
      handed.push(input.length);
      return segment.call(this, input);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const total = () => handed.reduce((sum, n) => sum + n, 0);

  /** Each field with text, the longest text it takes in code units, and how it is checked. */
  const fields: { name: string; codeUnits: number; check: (text: string) => unknown }[] = [
    { name: 'post content', codeUnits: POST_MAX_LENGTH * 4, check: (content) => api.postAdd.input.safeParse({ content, channel_id: [1], client_id: 'cost-test-1' }) },
    {
      name: 'code of a post',
      codeUnits: CODE_MAX_CHARS,
      check: (code) => api.postAdd.input.safeParse({ content: '代码', channel_id: [1], attach: [{ type: 'code', language: 'js', title: code.slice(0, 100), code }], client_id: 'cost-test-1' }),
    },
    { name: 'topic tags', codeUnits: 500, check: (topic_tags) => api.postAdd.input.safeParse({ content: '话题', channel_id: [1], topic_tags, client_id: 'cost-test-1' }) },
    {
      name: 'vote',
      codeUnits: 100,
      check: (text) => api.postAdd.input.safeParse({ content: '投票', channel_id: [1], vote: { title: text, options: [text.slice(0, 50), `${text.slice(0, 49)}b`] }, client_id: 'cost-test-1' }),
    },
    { name: 'comment', codeUnits: COMMENT_MAX_CHARS, check: (content) => api.commentAdd.input.safeParse({ post_id: 1, content, client_id: 'cost-test-1' }) },
    { name: 'note', codeUnits: NOTE_MAX_CHARS, check: (content) => api.noteUpdate.input.safeParse({ content }) },
    {
      name: 'complaint',
      codeUnits: FEEDBACK_MAX_CHARS * 64,
      check: (content) => {
        try {
          return checkComplaintText('', content);
        } catch (error) {
          return error;
        }
      },
    },
  ];

  it.each(fields)('hands at most 3 times the $name text (and a window or two) to the segmenter, and no more than two windows at once', ({ codeUnits, check }) => {
    for (const [kind, text] of [...worstTexts(codeUnits), ['ordinary', ordinaryText(codeUnits)] as const]) {
      handed = [];
      check(text);
      expect(total(), `${kind}: ${handed.length} pieces`).toBeLessThanOrEqual(3 * text.length + 2 * SEGMENT_WINDOW);
      // Only one character longer than a window makes the window grow.
      if (kind !== 'oneLongCharacter') expect(Math.max(0, ...handed), kind).toBeLessThanOrEqual(2 * SEGMENT_WINDOW);
    }
  });

  it('stops counting a post once its limit is passed: a text of 40,000 Devanagari letters is read no further than its first 10,001 units', () => {
    const text = 'क'.repeat(POST_MAX_LENGTH * 4 - 1);
    expect(isLongerThan(text, POST_MAX_LENGTH)).toBe(true);
    // Each letter counts 2: 5,001 letters pass the limit, and at most a window more is read.
    expect(total()).toBeLessThanOrEqual(2 * (POST_MAX_LENGTH / 2 + 1) + 2 * SEGMENT_WINDOW);
  });
});
