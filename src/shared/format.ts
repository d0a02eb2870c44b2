/**
 * Formatting and text rules both sides need (SPEC.md sections 5 and 9). Pure: no DOM, no
 * Node, nothing outside src/shared.
 */
import { DEFAULT_CUT_LENGTH } from './constants.ts';

// ---------------------------------------------------------------------------------------------
// Counts

/** The label shown for counts past the `k` range (SPEC.md section 9). */
export const COUNT_CAP_LABEL = '99.9k+';
/** The label shown for counts past the `w` range. */
export const COUNT_W_CAP_LABEL = '100w+';

/** A non-negative whole count; anything else (NaN, negative, Infinity) reads as 0. */
function wholeCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** `value / unit` truncated (never rounded up) to one decimal, with a trailing `.0` dropped. */
function oneDecimal(value: number, unit: number): string {
  const tenths = Math.floor((value * 10) / unit);
  const whole = Math.floor(tenths / 10);
  const decimal = tenths % 10;
  return decimal === 0 ? String(whole) : `${whole}.${decimal}`;
}

/**
 * Like, comment and follower counts (SPEC.md section 9).
 * - 0..1000: as is (`'1000'`).
 * - 1001..99999: thousands with one decimal, truncated so a count is never overstated, and
 *   a trailing `.0` dropped: 1001 -> `'1k'`, 1550 -> `'1.5k'`, 99999 -> `'99.9k'`.
 * - 100000 and above: `'99.9k+'`. (100000 itself is shown as the cap rather than `'100k'`,
 *   which would read larger than the cap label and make the display non-monotonic.)
 */
export function formatCount(n: number): string {
  const count = wholeCount(n);
  if (count <= 1000) return String(count);
  if (count < 100_000) return `${oneDecimal(count, 1000)}k`;
  return COUNT_CAP_LABEL;
}

/**
 * The alternate count format with `w` (万, units of 10000).
 * - 0..9999: as is.
 * - 10000..999999: tens of thousands with one decimal, truncated, trailing `.0` dropped:
 *   10000 -> `'1w'`, 12345 -> `'1.2w'`, 999999 -> `'99.9w'`.
 * - 1000000 and above: `'100w+'`.
 */
export function formatCountW(n: number): string {
  const count = wholeCount(n);
  if (count < 10_000) return String(count);
  if (count < 1_000_000) return `${oneDecimal(count, 10_000)}w`;
  return COUNT_W_CAP_LABEL;
}

// ---------------------------------------------------------------------------------------------
// Text length

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
 * split without Intl.Segmenter, whose first use loads its break data (tens of ms on a phone, on
 * every page that shows a cut text). tests/unit/format.test.ts checks every one of them against
 * Intl.Segmenter.
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
 * The leading part of a text made of {@link SINGLE_UNIT} characters and emoji: pictographs, flags,
 * {@link EMOJI_MARK}s and zero-width joiners. Posts and comments with emoji are mostly made of
 * these, and are split without Intl.Segmenter too: its first use costs 16-22 ms on a desktop
 * (its break data loaded), four times that on a phone, in the middle of the first screen.
 */
const EMOJI_TEXT = new RegExp(`^(?:${SINGLE_UNIT.source}|\\p{Extended_Pictographic}|\\p{Regional_Indicator}|${EMOJI_MARK}|\\u200D)*`, 'u');
/**
 * One user-perceived character of {@link EMOJI_TEXT}, by UAX #29's rules for those characters: a
 * control stands alone (GB4-5; tab, line feed and the soft hyphen are the ones there), marks and
 * joiners join what precedes them (GB9), a joiner between pictographs joins them (GB11) and
 * regional indicators pair up (GB12-13). tests/unit/format.test.ts checks it against
 * Intl.Segmenter.
 */
const EMOJI_TEXT_GRAPHEME = new RegExp(
  `[\\t\\n\\u00AD]|(?:\\p{Regional_Indicator}{1,2}|\\p{Extended_Pictographic}(?:${EMOJI_MARK}*\\u200D\\p{Extended_Pictographic})*|.)(?:${EMOJI_MARK}|\\u200D)*`,
  'uy',
);

function segmentedGraphemes(s: string): string[] {
  const seg = graphemeSegmenter();
  if (!seg) return fallbackGraphemes(s);
  return Array.from(seg.segment(s), (part) => part.segment);
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
  if (at < s.length) yield* segmentedGraphemes(s.slice(at));
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
 * Text length as SPEC.md section 5 counts it: an emoji (including modifier, keycap, flag and
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

// ---------------------------------------------------------------------------------------------
// Timestamps and prices

/** China Standard Time (UTC+8, no daylight saving), the platform's readers' clock: 今日 of the daily caps, the times of a page the server renders. */
export const CHINA_UTC_OFFSET_MINUTES = 480;

/**
 * Normalises a timestamp to milliseconds (SPEC.md section 5): 10 digits are seconds, 13 digits
 * milliseconds, more than 13 digits is an error. Shorter values are read as seconds (dates
 * before September 2001, including 0); 11 and 12 digits are read as milliseconds (a seconds
 * value that long would lie past the year 2286). Fractions are dropped. Throws on negative,
 * non-numeric or non-finite input.
 */
export function toMilliseconds(ts: number | string): number {
  let digits: string;
  if (typeof ts === 'number') {
    if (!Number.isFinite(ts) || ts < 0) throw new Error(`Invalid timestamp: ${ts}`);
    digits = BigInt(Math.floor(ts)).toString();
  } else {
    const match = /^\s*(\d+)(?:\.\d*)?\s*$/.exec(ts);
    if (!match) throw new Error(`Invalid timestamp: ${JSON.stringify(ts)}`);
    digits = match[1]!.replace(/^0+(?=\d)/, '');
  }
  if (digits.length > 13) throw new Error(`Timestamp has more than 13 digits: ${digits}`);
  const value = Number(digits);
  return digits.length <= 10 ? value * 1000 : value;
}

/**
 * A price in cents as yuan (SPEC.md section 9: cents divided by 100) with no trailing zeros:
 * 9900 -> `'99'`, 990 -> `'9.9'`, 1 -> `'0.01'`, 12345 -> `'123.45'`. Fractions of a cent are
 * rounded; non-finite input reads as 0.
 */
export function formatPrice(cents: number): string {
  const whole = Number.isFinite(cents) ? Math.round(cents) : 0;
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const yuan = Math.floor(abs / 100);
  const rest = abs % 100;
  if (rest === 0) return `${sign}${yuan}`;
  if (rest % 10 === 0) return `${sign}${yuan}.${rest / 10}`;
  return `${sign}${yuan}.${String(rest).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Links and domains

/** The provider's own domain family (SPEC.md section 5, domain check). */
export const DEFAULT_PROVIDER_DOMAINS: readonly string[] = ['geekbang.org', 'geekbang.com', 'infoq.cn'];

const URL_BODY = String.raw`https?:\/\/(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?::\d{1,5})?(?:[\/?#][A-Za-z0-9\-._~:\/?#\[\]@!$&'()*+,;=%]*)?`;
const FULL_URL = new RegExp(`^${URL_BODY}$`, 'i');
const URL_IN_TEXT = new RegExp(URL_BODY, 'gi');

/** Whether `s` (trimmed) is one absolute http or https URL. */
export function isHttpUrl(s: string): boolean {
  return FULL_URL.test(s.trim());
}

export interface LinkMatch {
  url: string;
  /** Index of the first character in the searched text. */
  start: number;
  /** Index one past the last character. */
  end: number;
}

/** Drops sentence punctuation that a URL pattern swallows at the end ("see https://x.cn/a)."). */
function trimTrailing(url: string): string {
  let out = url;
  for (;;) {
    const last = out.at(-1);
    if (last === undefined) return out;
    if ('.,;:!?\'"'.includes(last)) {
      out = out.slice(0, -1);
      continue;
    }
    if (last === ')' || last === ']') {
      const open = last === ')' ? '(' : '[';
      const opens = out.split(open).length - 1;
      const closes = out.split(last).length - 1;
      if (closes > opens) {
        out = out.slice(0, -1);
        continue;
      }
    }
    return out;
  }
}

/**
 * The http/https links in free text, in order. A link ends at whitespace, at any non-ASCII
 * character (so Chinese text right after a URL is not swallowed) and before trailing
 * punctuation or an unbalanced closing bracket.
 */
export function findLinks(text: string): LinkMatch[] {
  const found: LinkMatch[] = [];
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = trimTrailing(match[0]);
    const start = match.index;
    // A URL glued to a preceding word character ("xhttps://") is not a link of its own.
    if (start > 0 && /[A-Za-z0-9]/.test(text[start - 1]!)) continue;
    if (!FULL_URL.test(url)) continue;
    found.push({ url, start, end: start + url.length });
  }
  return found;
}

export type TextPart = { type: 'text'; text: string } | { type: 'link'; text: string; url: string };

/** `text` split into plain runs and links (for rendering links as anchors). */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const link of findLinks(text)) {
    if (link.start > at) parts.push({ type: 'text', text: text.slice(at, link.start) });
    parts.push({ type: 'link', text: link.url, url: link.url });
    at = link.end;
  }
  if (at < text.length) parts.push({ type: 'text', text: text.slice(at) });
  return parts;
}

/** The lower-cased host name of an absolute http(s) URL, or null. */
export function hostOf(url: string): string | null {
  const match = /^https?:\/\/(?:[^@/?#\s]*@)?(\[[^\]]*\]|[^:/?#\s]+)/i.exec(url.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Whether `hostname` belongs to the provider's domain family: one of the domains itself or a
 * subdomain of one (`time.geekbang.org`), never a lookalike (`evilgeekbang.org`,
 * `geekbang.org.evil.com`). Case and a trailing dot are ignored.
 */
export function isProviderHost(hostname: string, domainFamily: readonly string[] = DEFAULT_PROVIDER_DOMAINS): boolean {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (!host) return false;
  return domainFamily.some((raw) => {
    const domain = raw.trim().toLowerCase().replace(/^\./, '').replace(/\.$/, '');
    return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
  });
}

/** Whether `url` is an http(s) URL on the provider's domain family. */
export function isProviderUrl(url: string, domainFamily: readonly string[] = DEFAULT_PROVIDER_DOMAINS): boolean {
  const host = hostOf(url);
  return host !== null && isProviderHost(host, domainFamily);
}
