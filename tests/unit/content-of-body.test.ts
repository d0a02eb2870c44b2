/**
 * search/ cuts each post's excerpt from the content inside the post's JSON text (services/posts.ts,
 * contentOfBody) instead of reading the content twice: whatever the content holds (quotes,
 * backslashes in runs, escapes, line separators, emoji, text that looks like the next key), it
 * comes back exactly as written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentOfBody } from '../../src/server/services/posts.ts';

const TRICKY = ['"', '\\', '\\\\', '\\"', '"\\', '/', '\n', '\r', '\t', '\u0001', '\u2028', '😀', '中', ',"content":"x"', '","attach":', '\\u0041'];
const text = fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'grapheme' })), { maxLength: 30 }).map((parts) => parts.join(''));

/** A JSON string as PostgreSQL's to_json writes it: quote, backslash and the control characters escaped, nothing else. */
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const pgJson = (value: string) =>
  `"${Array.from(value, (char) => SHORT_ESCAPES[char] ?? (char < ' ' ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : char)).join('')}"`;

describe('contentOfBody', () => {
  it('reads the content back exactly from a body, escaped as PostgreSQL or as JSON.stringify escapes it', () => {
    fc.assert(
      fc.property(fc.nat(), text, text, (id, content, title) => {
        for (const escape of [pgJson, JSON.stringify]) {
          const body = `{"id":${id},"content":${escape(content)},"attach":[{"type":"code","title":${escape(title)}}],"like_count":0`;
          expect(contentOfBody(body)).toBe(content);
        }
      }),
      { numRuns: 500 },
    );
  });
});
