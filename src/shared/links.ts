/** Links in free text: the one http/https pattern of every place that finds or checks a link (plain text, markdown, safe hrefs). Pure. */

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
