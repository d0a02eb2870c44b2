/**
 * search/ cuts each post's excerpt from the content inside the post's JSON text (services/posts.ts,
 * contentOfBody) instead of reading the content twice, and reads its code snippets' titles from the
 * attach there alone (codeTitlesOfBody): whatever the content, the titles or the poll hold (quotes,
 * backslashes in runs, escapes, line separators, emoji, text that looks like the next key), they
 * come back exactly as written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeTitlesOfBody, contentOfBody } from '../../src/server/services/posts.ts';

const TRICKY = ['"', '\\', '\\\\', '\\"', '"\\', '/', '\n', '\r', '\t', '\u0001', '\u2028', '😀', '中', ',"content":"x"', '","attach":', '","vote":', ',"vote":null', '\\u0041'];
const text = fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'grapheme' })), { maxLength: 30 }).map((parts) => parts.join(''));

/** A JSON string as PostgreSQL's to_json writes it: quote, backslash and the control characters escaped, nothing else. */
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const pgJson = (value: string) =>
  `"${Array.from(value, (char) => SHORT_ESCAPES[char] ?? (char < ' ' ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : char)).join('')}"`;

describe('contentOfBody', () => {
  it('reads the content and the code titles back exactly from a body, escaped as PostgreSQL or as JSON.stringify escapes them', () => {
    fc.assert(
      fc.property(fc.nat(), text, fc.array(text, { maxLength: 3 }), text, (id, content, titles, option) => {
        for (const escape of [pgJson, JSON.stringify]) {
          // As post/add stores an attach (json, PostgreSQL's spacing) and poll_card() writes a poll.
          const attach = [`{"type" : "image", "url" : ${escape(option)}}`, ...titles.map((title) => `{"type" : "code", "title" : ${escape(title)}, "lang" : "go"}`)];
          const vote = `{"vote_id":1,"title":${escape(option)},"options":[{"option_id":2,"is_voted":false,"content":${escape(option)}}]}`;
          const body = `{"id":${id},"content":${escape(content)},"attach":[${attach.join(', ')}],"vote":${vote},"like_count":0`;
          expect(contentOfBody(body)).toBe(content);
          expect(codeTitlesOfBody(body)).toEqual(titles.filter((title) => title !== ''));
        }
      }),
      { numRuns: 500 },
    );
  });
});
