/** What a post card shows of its post's text and time, worked out once per post object. */
import type { Post } from '#shared/schemas.ts';
import { readableTime, type ReadingClock } from '../../format/time.ts';
import { cardText, type CardText } from './card-text.ts';

/** What a card derives from its post's text and time, worked out once per post object. */
interface PostFacts {
  readonly readable: string;
  /** The text as the card shows it. */
  readonly text: CardText;
}

/**
 * Keyed by the post object: the query cache keeps the object of an untouched post, so a long
 * scroll that mounts a card again (the windowed list) does not cut its text or read its time
 * again; a changed post is a new object and gets new facts. The readable time is as of the
 * first showing ("3分钟前" stays so until the feed is fetched again), like the card itself. By
 * another clock than the reader's (the server's first screen and its hydration), the time is
 * read each time and not kept.
 */
const factsByPost = new WeakMap<Post, PostFacts>();

export function postFacts(post: Post, clock: ReadingClock | null = null): PostFacts {
  let facts = factsByPost.get(post);
  if (!facts) {
    facts = { readable: readableTime(post.create_time), text: cardText(post.content) };
    // Not a text that waits for remove-markdown: worked out again once it is here.
    if (!facts.text.waiting) factsByPost.set(post, facts);
  }
  return clock ? { ...facts, readable: readableTime(post.create_time, clock.now, clock.utcOffsetMinutes) } : facts;
}
