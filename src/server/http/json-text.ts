/**
 * An answer the service has already written as JSON text, sent as it is inside the envelope
 * (define-endpoint.ts) instead of as objects checked against the schema and written by
 * http/serializer.ts.
 *
 * Why: a feed page is mostly its posts' text. Read as objects, every character of it was decoded
 * from the database's answer, parsed from JSON, walked by the schema's check, written to JSON
 * again and encoded: about 185 µs of the server's 468 for a page of twenty (perf, under the
 * bench's load), though PostgreSQL had already escaped it. Built as text, PostgreSQL writes each
 * post's own fields as JSON once, and Node only decodes, joins and encodes the pieces (a page's
 * server CPU went to about 350 µs).
 *
 * `T` is the data the text stands for, so a handler can only answer with text of its own output
 * type; tests/api/json-text.test.ts holds every such answer to the endpoint's schema.
 */
export class JsonText<T> {
  declare readonly answers?: T;
  constructor(readonly text: string) {}
}

/** JSON text of the values joined into an array. */
export const jsonArray = (items: readonly string[]): string => `[${items.join(',')}]`;
