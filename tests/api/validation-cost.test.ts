/**
 * A request's text costs little to check, and only after the cheap checks (the cost is the
 * server's, whatever its engine: checked on one). A visitor's call that needs a login is answered -2000 before its body is counted.
 * For a logged-in user, the worst text of each field (tests/support/worst-texts.ts) at the
 * longest the field takes costs the server's thread at most a small multiple of an ordinary
 * call of the same endpoint: measured as a ratio within this run (the least CPU time of calls
 * made by turns, after a warm-up), never as a time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, type Endpoint } from '../../src/shared/api.ts';
import { BASE64_BODY_HEADER } from '../../src/shared/endpoints.ts';
import { CODE_MAX_CHARS, COMMENT_MAX_CHARS, FEEDBACK_MAX_CHARS, NOTE_MAX_CHARS, POST_MAX_LENGTH } from '../../src/shared/constants.ts';
import { codeOf, newClientId, phoneSource, testAppFor, behaviourDatabases, type CallOptions, type TestApp } from '../support/api.ts';
import { atLength, worstTexts } from '../support/worst-texts.ts';

/** How many times an ordinary call the worst one may cost. */
const RATIO_BOUND = 6;
const ROUNDS = 7;

const UNLIMITED = {
  WRITE_LIMIT_PER_MINUTE: '1000000',
  DAILY_POST_LIMIT: '1000000',
  DAILY_COMMENT_LIMIT: '1000000',
  DAILY_NOTE_LIMIT: '1000000',
  DAILY_COMPLAINT_LIMIT: '1000000',
  REQUEST_LIMIT_PER_ADDRESS: '1000000',
  REQUEST_LIMIT_PER_USER: '1000000',
};

interface Field {
  name: string;
  endpoint: Endpoint;
  /** The body with `text` in the field. */
  body(text: string): unknown;
  /** The field's texts to try: the worst ones, at the longest the field takes. */
  texts(): [string, string][];
  ordinary: string;
  /** Notes travel as base64 JSON. */
  base64?: boolean;
}

const post = (extra: Record<string, unknown>) => ({ content: '今天学到了很多', channel_id: [1], client_id: newClientId('cost'), ...extra });

const FIELDS: Field[] = [
  {
    name: 'post content',
    endpoint: api.postAdd,
    body: (content) => post({ content }),
    texts: () =>
      worstTexts(POST_MAX_LENGTH * 4 - 1).flatMap(([kind, text]): [string, string][] => [
        [`${kind}, over the limit`, text],
        [`${kind}, at the limit`, atLength(text, POST_MAX_LENGTH)],
      ]),
    ordinary: '今天学到了很多',
  },
  {
    name: 'code',
    endpoint: api.postAdd,
    body: (code) => post({ attach: [{ type: 'code', language: 'python', title: '代码', code }] }),
    texts: () => worstTexts(CODE_MAX_CHARS),
    ordinary: 'print("hello")',
  },
  { name: 'topic tags', endpoint: api.postAdd, body: (topic_tags) => post({ topic_tags }), texts: () => worstTexts(500), ordinary: '#学习#' },
  {
    name: 'vote',
    endpoint: api.postAdd,
    body: (text) => post({ vote: { title: text.slice(0, 100), options: [text.slice(0, 50), `${text.slice(0, 49)}！`] } }),
    texts: () => worstTexts(100),
    ordinary: '选哪个',
  },
  {
    name: 'comment',
    endpoint: api.commentAdd,
    body: (content) => ({ post_id: 31, content, client_id: newClientId('cost') }),
    texts: () => worstTexts(COMMENT_MAX_CHARS),
    ordinary: '说得好',
  },
  { name: 'note', endpoint: api.noteUpdate, body: (content) => ({ content, client_id: newClientId('cost') }), texts: () => worstTexts(NOTE_MAX_CHARS), ordinary: '一条笔记', base64: true },
  {
    name: 'complaint',
    endpoint: api.complainAdd,
    body: (content) => ({ target_type: 'post', target_id: 12, reason: '', content, client_id: newClientId('cost') }),
    texts: () => worstTexts(FEEDBACK_MAX_CHARS * 64),
    ordinary: '垃圾广告',
  },
];

const cpuMicros = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

/**
 * What a call costs: the least of its tries. A pause of the garbage collector, or of the machine,
 * lands on some calls and only adds to them; a median of an ordinary call's few milliseconds
 * moved with them far enough to fail a quiet run.
 */
const intrinsic = (values: number[]) => Math.min(...values);

async function send(t: TestApp, field: Field, text: string, ticket: string | undefined): Promise<number | undefined> {
  const body = field.body(text);
  const options: CallOptions = { ticket };
  if (field.base64) {
    options.headers = { 'content-type': 'text/plain', [BASE64_BODY_HEADER]: 'base64' };
    options.rawBody = Buffer.from(JSON.stringify(body)).toString('base64');
  }
  return codeOf(await t.call(field.endpoint, body, options));
}

/** The CPU time of one call. */
async function cost(t: TestApp, field: Field, text: string, ticket: string): Promise<number> {
  const before = cpuMicros();
  await send(t, field, text, ticket);
  return cpuMicros() - before;
}

describe.each(behaviourDatabases)('what checking text costs on $name', ({ name, open }) => {
  const app = testAppFor(open, UNLIMITED);
  const freshPhone = phoneSource(name === 'PGlite' ? '1583405' : '1583406');
  afterEach(() => vi.restoreAllMocks());

  it('answers a visitor -2000 before counting the text of a call that needs a login', async () => {
    const cases = FIELDS.flatMap((field) => field.texts().slice(0, 3).map(([kind, text]) => ({ field, kind, text })));
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    for (const { field, kind, text } of cases) expect(await send(app.t, field, text, undefined), `${field.name}: ${kind}`).toBe(-2000);
    expect(segment).not.toHaveBeenCalled();
  });

  it.each(FIELDS)(`costs at most ${RATIO_BOUND} ordinary calls for the worst $name`, async (field) => {
    const me = await app.t.login(freshPhone());
    const texts = field.texts();
    // Warm up: the first calls compile what the rest run.
    for (const [, text] of texts) await send(app.t, field, text, me.ticket);
    for (let i = 0; i < 3; i++) await send(app.t, field, field.ordinary, me.ticket);
    const ratios: Record<string, number> = {};
    for (const [kind, text] of texts) {
      const ordinary: number[] = [];
      const worst: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        ordinary.push(await cost(app.t, field, field.ordinary, me.ticket));
        worst.push(await cost(app.t, field, text, me.ticket));
      }
      ratios[kind] = Math.round((intrinsic(worst) / Math.max(1, intrinsic(ordinary))) * 10) / 10;
    }
    console.log(`${name} ${field.name}: worst / ordinary call`, JSON.stringify(ratios));
    for (const [kind, ratio] of Object.entries(ratios)) expect(ratio, kind).toBeLessThanOrEqual(RATIO_BOUND);
  });
});
