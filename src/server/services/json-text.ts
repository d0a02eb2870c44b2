/**
 * An answer the service has already written as JSON text, sent as it is inside the envelope
 * (define-endpoint.ts) instead of as objects checked against the schema and written by
 * http/serializer.ts.
 *
 * Why: a feed page is mostly its posts' text. Read as objects, every character of it would be
 * decoded from the database's answer, parsed from JSON, walked by the schema's check, written to
 * JSON again and encoded, though PostgreSQL had already escaped it: most of the server's work on
 * a page. Built as text, PostgreSQL writes each post's own fields as JSON once, and Node only
 * decodes, joins and encodes the pieces.
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
