// @vitest-environment node
/**
 * search/'s excerpts (services/search.ts) of long texts, and of a short one (folded another way):
 * the text is folded in one pass and read to its first match only, and what shows is exactly what a
 * full reading marks: every match inside the excerpt (full-width forms and capitals folded, shown
 * as written), none past it, … where cut.
 */
import { describe, expect, it } from 'vitest';
import { excerpter, postExcerpter } from '../../src/server/services/search.ts';

const hit = (text: string) => ({ text, hit: true });
const plain = (text: string) => ({ text, hit: false });

describe('an excerpt of a long text', () => {
  const text = `${'前言，'.repeat(1000)}ＧＯ语言，Go与Ｒｕｓｔ，GO${'，后记'.repeat(10)}gO${'，后记'.repeat(3000)}`;

  it('marks every match within it, from a little before the first, as written', () => {
    expect(excerpter('go')(text)).toEqual([
      plain(`…言，${'前言，'.repeat(6)}`),
      hit('ＧＯ'),
      plain('语言，'),
      hit('Go'),
      plain('与Ｒｕｓｔ，'),
      hit('GO'),
      plain('，后记'.repeat(10)),
      hit('gO'),
      plain(`${'，后记'.repeat(4)}，…`),
    ]);
  });

  it('of a short text with a few forms to fold: the same marks', () => {
    expect(excerpter('go')('学ＧＯ，Go与Ｒｕｓｔ。gO')).toEqual([plain('学'), hit('ＧＯ'), plain('，'), hit('Go'), plain('与Ｒｕｓｔ。'), hit('gO')]);
  });

  it('marks a CJK query found only as its bigrams apart, each where it is', () => {
    const apart = `${'甲'.repeat(5000)}先学习，再养成习惯${'乙'.repeat(5000)}`;
    expect(excerpter('学习惯')(apart)).toEqual([plain(`…${'甲'.repeat(19)}先`), hit('学习'), plain('，再养成'), hit('习惯'), plain(`${'乙'.repeat(52)}…`)]);
  });

  it('of a post matched in its topic alone: the topic, marked', () => {
    expect(postExcerpter('学习')(text, { topicNames: () => ['Rust学习'], codeTitles: () => [] })).toEqual([plain('#Rust'), hit('学习'), plain('#')]);
  });
});
