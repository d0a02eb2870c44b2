/**
 * Names of channels and topics by id, for the post reads, kept in memory per database.
 *
 * Why: every post of a page names its channels and topics; looking them up for each post cost
 * the database more than reading the page itself (tests/bench). The service never renames
 * either: a topic's name is what identifies it (post/add finds topics by name), and channels
 * come from the seed or an administrator. So:
 * - topics are read by id when first met and kept (at most MAX_TOPICS, then read again);
 * - channels, a small table, are read whole, again when a post names one not yet known (made
 *   since), and after CHANNEL_NAMES_TTL_MS, so a change made by hand in the database shows
 *   within that time.
 */
import type { Channel, Topic } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { preparedStatement, queryPrepared } from '../db/prepared.ts';
import { cacheOwner } from '../db/transaction.ts';
import { jsonArray } from './json-text.ts';

export const CHANNEL_NAMES_TTL_MS = 60_000;
const MAX_TOPICS = 100_000;

interface Known {
  /** Every channel as JSON text, and its place in the order posts list them (sort, then id). */
  channels: Map<number, { json: string; order: number }>;
  channelsReadAt: number;
  /** Topics met so far: the name, and as JSON text. */
  topics: Map<number, { name: string; json: string }>;
}

const ALL_CHANNELS = preparedStatement('reference_channels', [], 'select id, name from channels order by sort, id');
const TOPICS_BY_IDS = preparedStatement('reference_topics', ['int[]'], 'select id, name from topics where id = any($1)');

/** Per database (apps on different test databases share a process); a write's connection uses its pool's (db/transaction.ts, cacheOwner). */
const cache = new WeakMap<Db, Known>();

function knownOf(db: Db): Known {
  const owner = cacheOwner(db);
  let known = cache.get(owner);
  if (!known || known.topics.size > MAX_TOPICS) {
    known = { channels: new Map(), channelsReadAt: 0, topics: new Map() };
    // A transaction has no driver client of its own (db/prepared.ts) and keeps nothing: it reads afresh.
    if ((owner as { $client?: unknown }).$client) cache.set(owner, known);
  }
  return known;
}

/**
 * Names as a post's JSON text carries them (json-text.ts), each channel and topic written
 * once when read, not stringified again for every post of every page.
 */
export interface ReferenceNames {
  /** JSON text of the channels of the ids that exist, in list order (sort, then id). */
  channelsJson(ids: readonly number[]): string;
  /** JSON text of the topics of the ids that exist, in the order of the ids. */
  topicsJson(ids: readonly number[]): string;
  /** The names of the topics of the ids that exist, in the order of the ids. */
  topicNames(ids: readonly number[]): string[];
}

/** Reads what is missing (or stale) of the ids, then answers for them. */
export async function referenceNames(db: Db, channelIds: readonly number[], topicIds: readonly number[]): Promise<ReferenceNames> {
  const known = knownOf(db);
  const stale = Date.now() - known.channelsReadAt > CHANNEL_NAMES_TTL_MS;
  if (stale || channelIds.some((id) => !known.channels.has(id))) {
    const rows = await queryPrepared<{ id: number; name: string }>(db, ALL_CHANNELS, []);
    known.channels = new Map(
      rows.map((row, order) => [row.id, { json: JSON.stringify({ channel_id: row.id, channel_name: row.name } satisfies Channel), order }]),
    );
    known.channelsReadAt = Date.now();
  }
  const missing = topicIds.filter((id) => !known.topics.has(id));
  if (missing.length > 0) {
    for (const row of await queryPrepared<{ id: number; name: string }>(db, TOPICS_BY_IDS, [[...new Set(missing)]])) {
      known.topics.set(row.id, { name: row.name, json: JSON.stringify({ topic_id: row.id, topic_name: row.name } satisfies Topic) });
    }
  }
  // Plain loops, no flatMap or sort per post: every post of every page comes through here.
  return {
    channelsJson: (ids) => {
      const entries: { json: string; order: number }[] = [];
      for (const id of ids) {
        const entry = known.channels.get(id);
        if (entry) entries.push(entry);
      }
      if (entries.length > 1) entries.sort((a, b) => a.order - b.order);
      const out: string[] = [];
      for (const entry of entries) out.push(entry.json);
      return jsonArray(out);
    },
    topicsJson: (ids) => {
      const out: string[] = [];
      for (const id of ids) {
        const topic = known.topics.get(id);
        if (topic) out.push(topic.json);
      }
      return jsonArray(out);
    },
    topicNames: (ids) => ids.flatMap((id) => known.topics.get(id)?.name ?? []),
  };
}
