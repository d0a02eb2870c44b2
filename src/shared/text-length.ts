/**
 * Text length and cutting by user-perceived characters, as the platform counts them for the
 * limits of posts and nicknames and the cut of a long text. Pure: no DOM, no Node, nothing
 * outside src/shared.
 */
import { DEFAULT_CUT_LENGTH } from './constants.ts';

const EMOJI_GRAPHEME =
  /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Extended_Pictographic}\u200D|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u20E3/u;

/** Code points that attach to the previous one (used only where Intl.Segmenter is missing). */
const JOINS_PREVIOUS = /\p{M}|[\uFE00-\uFE0F]|\u200D|\p{Emoji_Modifier}|[\u{E0020}-\u{E007F}]|\u20E3/u;
const REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;

let segmenter: Intl.Segmenter | null | undefined;

function graphemeSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  }
  return segmenter;
}

/**
 * Fallback grapheme split for engines without Intl.Segmenter (older WebViews): combining
 * marks, variation selectors, skin-tone modifiers, tags and keycaps attach to the previous
 * code point, a zero-width joiner glues the next one on, and regional indicators pair up.
 */
export function fallbackGraphemes(s: string): string[] {
  const out: string[] = [];
  let joinNext = false;
  let openFlag = false;
  for (const cp of s) {
    const last = out.length - 1;
    if (last >= 0 && (joinNext || JOINS_PREVIOUS.test(cp))) {
      out[last] += cp;
      joinNext = cp === '\u200D';
      openFlag = false;
      continue;
    }
    if (last >= 0 && openFlag && REGIONAL_INDICATOR.test(cp)) {
      out[last] += cp;
      openFlag = false;
      continue;
    }
    out.push(cp);
    joinNext = false;
    openFlag = REGIONAL_INDICATOR.test(cp);
  }
  return out;
}

/**
 * The code units that are each a user-perceived character of their own and never join a
 * neighbour: tab, line feed (not CR: CR LF is one), printable ASCII, Latin-1 and Latin Extended
 * letters, general punctuation (dashes, curly quotes, the ellipsis, the reference mark), CJK
 * punctuation (not the tone marks U+302A-302F), the CJK ideographs and the fullwidth forms (not
 * the halfwidth sound marks U+FF9E-FF9F). Most posts and comments are made of them: they are
 * split without Intl.Segmenter, whose first use loads its break data on every page that shows a
 * cut text. tests/unit/text-length.test.ts checks every one of them against Intl.Segmenter.
 */
const SINGLE_UNIT = /[\t\n\x20-\x7E\u00A0-\u024F\u2010-\u2027\u2030-\u205E\u3000-\u3029\u3030-\u303F\u4E00-\u9FFF\uFF01-\uFF9D\uFFA0-\uFFEF]/;
/** Text made only of {@link SINGLE_UNIT}. */
export const SINGLE_UNIT_GRAPHEMES = new RegExp(`^${SINGLE_UNIT.source}*$`);

/**
 * The marks emoji are made with, each of which joins the character before it (UAX #29's Extend):
 * variation selectors, skin tones, tag characters and the keycap.
 */
const EMOJI_MARK = '(?:[\\uFE00-\\uFE0F]|\\p{Emoji_Modifier}|[\\u{E0020}-\\u{E007F}]|\\u20E3)';
/**
 * The leading part of a text made of {@link SINGLE_UNIT} characters, CR and emoji: pictographs,
 * flags, {@link EMOJI_MARK}s and zero-width joiners. Posts and comments with emoji or CR LF line
 * ends are mostly made of these, and are split without Intl.Segmenter too: its first use loads its
 * break data in the middle of the first screen, and its cost per character is many times theirs.
 */
const EMOJI_TEXT = new RegExp(`^(?:${SINGLE_UNIT.source}|\\r|\\p{Extended_Pictographic}|\\p{Regional_Indicator}|${EMOJI_MARK}|\\u200D)*`, 'u');
/**
 * One user-perceived character of {@link EMOJI_TEXT}, by UAX #29's rules for those characters: CR LF
 * is one (GB3), any other control stands alone (GB4-5; CR, tab, line feed and the soft hyphen are
 * the ones there), marks and joiners join what precedes them (GB9), a joiner between pictographs
 * joins them (GB11) and regional indicators pair up (GB12-13). tests/unit/text-length.test.ts
 * checks it against Intl.Segmenter.
 */
const EMOJI_TEXT_GRAPHEME = new RegExp(
  `\\r\\n?|[\\t\\n\\u00AD]|(?:\\p{Regional_Indicator}{1,2}|\\p{Extended_Pictographic}(?:${EMOJI_MARK}*\\u200D\\p{Extended_Pictographic})*|.)(?:${EMOJI_MARK}|\\u200D)*`,
  'uy',
);

/**
 * How many code units Intl.Segmenter is given at a time. Its cost grows with the length of
 * what it segments times the characters it yields (a long run of Devanagari letters or of CRs
 * in one piece is slow beyond any user's patience), so a long text is segmented a window at a time:
 * linear in the text, whatever its script.
 */
export const SEGMENT_WINDOW = 256;

/**
 * The user-perceived characters of `s` from `from` on, by Intl.Segmenter a window at a time. A
 * window's last character may go on past it, so it is left for the next window, which starts
 * where it starts: a break inside a window depends only on the characters around it (UAX #29),
 * so every break found before the window's last is a break of the whole text. A character
 * longer than a window (a letter with a thousand accents) doubles the window until it fits.
 */
function* segmentedGraphemes(s: string, from = 0): Generator<string> {
  const seg = graphemeSegmenter();
  if (!seg) {
    yield* fallbackGraphemes(s.slice(from));
    return;
  }
  let at = from;
  let window = SEGMENT_WINDOW;
  while (at < s.length) {
    let end = Math.min(s.length, at + window);
    // Never between the halves of a surrogate pair: half of one is a character of its own.
    const last = s.charCodeAt(end - 1);
    if (end < s.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    let pending: string | undefined;
    let yielded = false;
    for (const { segment } of seg.segment(s.slice(at, end))) {
      if (pending !== undefined) {
        yield pending;
        at += pending.length;
        yielded = true;
      }
      pending = segment;
    }
    if (end === s.length) {
      if (pending !== undefined) yield pending;
      return;
    }
    window = yielded ? SEGMENT_WINDOW : window * 2;
  }
}

/** The user-perceived characters of `s` (an emoji with modifiers or ZWJ parts is one). */
export function graphemes(s: string): string[] {
  if (SINGLE_UNIT_GRAPHEMES.test(s)) return s.split('');
  return [...eachGrapheme(s)];
}

/**
 * The user-perceived characters of `s`, one at a time. Intl.Segmenter is made only for a text
 * with other characters than {@link EMOJI_TEXT}'s, and only once the consumer reads past the
 * part made of them (a cut ending before it never makes one).
 */
export function* eachGrapheme(s: string): Generator<string> {
  const simple = EMOJI_TEXT.exec(s)![0].length;
  let at = 0;
  while (at < simple) {
    EMOJI_TEXT_GRAPHEME.lastIndex = at;
    const next = EMOJI_TEXT_GRAPHEME.exec(s)![0];
    // The part's last character may join what follows it (a letter and its accent): it is split with the rest.
    if (at + next.length === simple && simple < s.length) break;
    yield next;
    at += next.length;
  }
  if (at < s.length) yield* segmentedGraphemes(s, at);
}

/** The length units of one user-perceived character: emoji 4, other non-ASCII 2, ASCII 1. */
export function graphemeLength(g: string): number {
  if (EMOJI_GRAPHEME.test(g)) return 4;
  for (let i = 0; i < g.length; i += 1) {
    if (g.charCodeAt(i) > 0x7f) return 2;
  }
  return 1;
}

/**
 * Text length as the platform counts it: an emoji (including modifier, keycap, flag and
 * ZWJ sequences) counts 4, any other non-ASCII character 2, anything else 1.
 */
export function textLength(s: string): number {
  let total = 0;
  for (const g of graphemes(s)) total += graphemeLength(g);
  return total;
}

/** The most length units one code unit can make: a one-unit emoji (⭐) counts 4. */
const MAX_UNITS_PER_CODE_UNIT = 4;

/**
 * `textLength(s) > length`, reading no further than the answer needs: a text too short to
 * reach `length` by any count, or one that passes it before its first emoji, is decided
 * without Intl.Segmenter.
 */
export function isLongerThan(s: string, length: number): boolean {
  if (s.length * MAX_UNITS_PER_CODE_UNIT <= length) return false;
  let used = 0;
  for (const part of eachGrapheme(s)) {
    used += graphemeLength(part);
    if (used > length) return true;
  }
  return false;
}

/** Whether `s` has more than `count` user-perceived characters, reading no further than the answer needs. */
export function hasMoreGraphemesThan(s: string, count: number): boolean {
  if (s.length <= count) return false;
  let seen = 0;
  for (const _part of eachGrapheme(s)) {
    seen += 1;
    if (seen > count) return true;
  }
  return false;
}

/**
 * Cuts `s` to at most `length` text-length units (see {@link textLength}) without splitting a
 * character, and appends `'...'` when something was cut. Text that fits is returned unchanged.
 */
export function cutText(s: string, length: number = DEFAULT_CUT_LENGTH): string {
  let used = 0;
  let kept = 0;
  for (const part of eachGrapheme(s)) {
    used += graphemeLength(part);
    if (used > length) return `${s.slice(0, kept)}...`;
    kept += part.length;
  }
  return s;
}
