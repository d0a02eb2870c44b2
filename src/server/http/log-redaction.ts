/**
 * No secret reaches a log line, whatever spells it. Every line the logger writes passes through
 * {@link redactSecrets} (pino's streamWrite hook, app.ts), so the request's URL, headers, cookies,
 * a logged body or an error's text are all covered by one rule: a value is hidden when its name,
 * decoded as the query parser decodes it (percent-encoding, `+`, repeatedly) and compared without
 * case or punctuation, names a secret: a ticket (the GCESS cookie, the Ticket header, `?ticket=`),
 * a cookie or authorization header, a token or password, or a one-time code. And whatever has a
 * ticket's shape inside a URL or path (a segment, a file name, a query value) is hidden unnamed.
 */
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/** Names whose values are secret wherever they appear, once decoded and folded (tests/api/log-redaction.test.ts). */
const SECRET_NAME = /ticket|gcess|cookie|authorization|token|passw|secret|captcha/;
/** A one-time code: a name ending in "code" with a value of digits (an error's `code` is words or negative). */
const CODE_NAME = /code$/;
const CODE_VALUE = /^\s*\d{4,8}\s*$/;

/** The name as a query parser reads it: percent-decoded until it stops changing, `+` as a space. */
function decodedName(name: string): string {
  let current = name;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current.replace(/\+/g, ' '));
    } catch {
      // A malformed escape (%zz): decode what can be, one escape at a time.
      next = current.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
    }
    if (next === current) break;
    current = next;
  }
  return current.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Whether the value of `name` must be hidden. */
export function isSecretName(name: string, value = ''): boolean {
  const folded = decodedName(name);
  return SECRET_NAME.test(folded) || (CODE_NAME.test(folded) && CODE_VALUE.test(value));
}

/**
 * A ticket as services/sessions.ts makes it, 32 random bytes in base64url: 43 characters, or a
 * longer run of them that may hold one. Only where a run starts, so the match is one pass.
 */
const TICKET_RUN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43,}/g;
/** A URL's path and query, or any path in a line (`Route GET:/serv/v1/… not found`): from a slash to a space or a quote. */
const PATH = /\/[^\s"'\\<>]*/g;

/** `name=value` in a URL's query, a cookie header or any text: the name runs up to `=`, the value to a separator. */
const PAIR = /([^\s?&;=#"',{}\\]+)=([^&;\s#"'\\]*)/g;
/** `"name":"value"`, `"name":123456` or `"name":[...]` in a JSON line. */
const JSON_PAIR = /"((?:[^"\\]|\\.){1,200})":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|\[(?:[^\]"]|"(?:[^"\\]|\\.)*")*\])/g;

/**
 * `text` with the value of every secret hidden. Linear in the text: each pattern is one pass
 * without backtracking across separators.
 */
export function redactSecrets(text: string): string {
  let out = text;
  if (out.includes('"')) {
    out = out.replace(JSON_PAIR, (pair, name: string, value: string) =>
      isSecretName(name, value.startsWith('"') ? value.slice(1, -1) : value) ? `"${name}":"${REDACTED}"` : pair,
    );
  }
  if (out.includes('=')) {
    out = out.replace(PAIR, (pair, name: string, value: string) => (value !== REDACTED && isSecretName(name, value) ? `${name}=${REDACTED}` : pair));
  }
  // A ticket put in a path by mistake (a client that built /serv/v1/<ticket>) carries no name to find it by.
  if (out.includes('/')) out = out.replace(PATH, (path) => path.replace(TICKET_RUN, REDACTED));
  return out;
}

/** Fastify's request serializer for log lines: what a line needs, the URL with its secrets hidden. */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactSecrets(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
