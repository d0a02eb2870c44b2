/**
 * Texts that cost the most to count by the rules of src/shared/text-length.ts, for the
 * tests of what validating them costs and the bench's stall case: scripts whose characters
 * Intl.Segmenter must split one by one (Devanagari, Hangul syllables from jamo, letters with
 * accents, spacing marks, Thai), one character a thousand code units long, emoji sequences,
 * flags, CR, and a mix. Each is made to a length in code units, filled to it.
 */
import { textLength } from '../../src/shared/text-length.ts';

/** A repeat of `unit` filling `codeUnits` (cut to whole units). */
const fill = (unit: string, codeUnits: number) => unit.repeat(Math.max(1, Math.floor(codeUnits / unit.length)));

export const WORST_TEXT_KINDS = {
  devanagari: (n: number) => fill('क', n),
  hangulJamo: (n: number) => fill('\u1100\u1161', n),
  accents: (n: number) => fill('a\u0301', n),
  oneLongCharacter: (n: number) => `a${'\u0301'.repeat(n - 1)}`,
  spacingMarks: (n: number) => fill('क\u0903', n),
  thai: (n: number) => fill('\u0e01\u0e31', n),
  flags: (n: number) => fill('🇨🇳', n),
  emojiSequences: (n: number) => fill('👨\u200d👩\u200d👧', n),
  carriageReturns: (n: number) => fill('x\r', n),
  mixed: (n: number) => fill('a😀क\u0301\r中\u1100\u1161', n),
} as const;

export type WorstTextKind = keyof typeof WORST_TEXT_KINDS;

/** Every worst text of `codeUnits` code units, by kind. */
export function worstTexts(codeUnits: number): [WorstTextKind, string][] {
  return (Object.keys(WORST_TEXT_KINDS) as WorstTextKind[]).map((kind) => [kind, WORST_TEXT_KINDS[kind](codeUnits)]);
}

/** The longest start of `text` within `units` as textLength counts: a text at a field's limit, taken. */
export function atLength(text: string, units: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (textLength(text.slice(0, mid)) <= units) low = mid;
    else high = mid - 1;
  }
  return text.slice(0, low);
}

/** An ordinary text of about `codeUnits` code units: Chinese with some ASCII, what users write. */
export function ordinaryText(codeUnits: number): string {
  return fill('今天学习了 React 的 hooks，很有收获。', codeUnits);
}
