import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { memo, type MouseEvent, type ReactNode } from 'react';
import { formatCount } from '#shared/count.ts';
import type { CodeAttach, ImageAttach, Post } from '#shared/schemas.ts';
import { fullTime, useReadingClock, type ReadingClock } from '../../../format/time.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { ChunkLoadError, loadChunk } from '../../../lib/chunk.ts';
import { toast } from '../../../ui/toast/toast-store.ts';
import { IconComment, IconMore } from '../../../ui/icons.tsx';
import { LazyLayer } from '../../../ui/LazyLayer.tsx';
import { ImageGrid } from './ImageGrid.tsx';
import { LikeButton } from './LikeButton.tsx';
import { PostContent } from './PostContent.tsx';
import { postFacts } from '../post-facts.ts';
import { CodeCard, PostVote } from '../post-parts.ts';
import './feed.css';

/** Clicks on these (or inside them) are theirs, not the card's. */
const INTERACTIVE = 'a, button, input, textarea, select, label, [role="button"], .vote';

export function PostChips({ post }: { post: Post }) {
  return <Chips channels={post.channels} topics={post.topics} />;
}

/** A topic as a chip names it: without an id (a post still waiting, its new topics not made yet) it is no link. */
export interface ChipTopic {
  topic_id?: number;
  topic_name: string;
}

/** A card's channels and topics, as links to their pages. */
export function Chips({ channels, topics }: { channels: readonly { channel_id: number; channel_name: string }[]; topics: readonly ChipTopic[] }) {
  if (channels.length === 0 && topics.length === 0) return null;
  return (
    <ul className="chips" aria-label="频道与话题">
      {channels.map((channel) => (
        <li key={`c${channel.channel_id}`}>
          <Link
            to="/channel/list/$id"
            params={{ id: String(channel.channel_id) }}
            className="chip chip--channel"
          >
            {channel.channel_name}
          </Link>
        </li>
      ))}
      {topics.map((topic) => (
        <li key={topic.topic_id === undefined ? `n${topic.topic_name}` : `t${topic.topic_id}`}>
          {topic.topic_id === undefined ? (
            <span className="chip chip--topic">#{topic.topic_name}#</span>
          ) : (
            <Link to="/topic/comment/$id" params={{ id: String(topic.topic_id) }} className="chip chip--topic">
              #{topic.topic_name}#
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * One post. In the feed the whole card opens /message/detail/$id (keyboard users reach the
 * same page through the time link); on the detail page (`full`) the text is never cut.
 * `aside` ends its header (the post's page puts 关注 there); `excerpt` follows it (a search's match).
 */
export const PostCard = memo(function PostCard({
  post,
  full = false,
  aside,
  excerpt,
}: {
  post: Post;
  full?: boolean;
  aside?: ReactNode;
  excerpt?: ReactNode;
}) {
  const clock = useReadingClock();
  // The detail page (`full`) shows neither: its text is whole, its time the full one.
  const facts = full ? null : postFacts(post, clock);
  const navigate = useNavigate();
  const router = useRouter();
  const images = post.attach.filter((a): a is ImageAttach => a.type === 'image');
  const codes = post.attach.filter((a): a is CodeAttach => a.type === 'code');
  const detailParams = { id: String(post.id) };
  const authorName = post.user.nick || '匿名用户';

  const onCardClick = (event: MouseEvent<HTMLElement>) => {
    if (full) return;
    if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
    // Selecting text is not a click.
    if (window.getSelection()?.toString()) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey) {
      // Built by the router, so the new window keeps the carried gk_/utm_/code parameters.
      window.open(router.buildLocation({ to: '/message/detail/$id', params: detailParams }).href, '_blank', 'noopener');
      return;
    }
    void navigate({ to: '/message/detail/$id', params: detailParams });
  };

  return (
    <article
      className={`post-card${full ? ' post-card--full' : ''}`}
      aria-labelledby={`post-${post.id}-author`}
      onClick={onCardClick}
    >
      <PostCardHead post={post} full={full} aside={aside} readable={facts?.readable} clock={clock} />
      {excerpt}
      {post.hidden ? (
        // Only its author (and moderators) read a hidden post: why it is gone for everyone else.
        <p className="post-card__hidden" role="note">
          该内容已被隐藏{post.hidden_reason ? `：${post.hidden_reason}` : ''}
        </p>
      ) : null}

      <PostContent postId={post.id} text={post.content} full={full} {...(facts ? { card: facts.text } : {})} />
      <ImageGrid images={images} alt={`${authorName}的动态`} />
      {codes.length > 0 || post.vote ? (
        <LazyLayer>
          {codes.map((code) => (
            <CodeCard key={code.uuid} postId={post.id} code={code} />
          ))}
          {post.vote ? <PostVote postId={post.id} vote={post.vote} /> : null}
        </LazyLayer>
      ) : null}
      <PostChips post={post} />

      <PostCardFoot post={post} full={full} />
    </article>
  );
});

/** A card's header: the author's avatar and name, the time (a link to the post in the feed), 精华, and `aside`. */
function PostCardHead({ post, full, aside, readable, clock }: { post: Post; full: boolean; aside: ReactNode; readable: string | undefined; clock: ReadingClock | null }) {
  const iso = new Date(post.create_time).toISOString();
  const localTime = fullTime(post.create_time, clock?.utcOffsetMinutes);
  const authorName = post.user.nick || '匿名用户';
  const detailParams = { id: String(post.id) };
  return (
    <header className="post-card__head">
      <Link
        to="/usercenter/$id"
        params={{ id: String(post.user.uid) }}
        className="post-card__avatar"
        tabIndex={-1}
        aria-hidden="true"
      >
        <Avatar src={post.user.avatar} nick={authorName} size={full ? 44 : 40} />
      </Link>
      <div className="post-card__meta">
        <Link
          to="/usercenter/$id"
          params={{ id: String(post.user.uid) }}
          className="post-card__author"
          id={`post-${post.id}-author`}
        >
          {authorName}
        </Link>
        {full ? (
          <time className="post-card__time" dateTime={iso}>
            {localTime}
          </time>
        ) : (
          <Link to="/message/detail/$id" params={detailParams} className="post-card__time">
            <time dateTime={iso} title={localTime}>
              {readable}
            </time>
            <span className="visually-hidden">，查看动态详情</span>
          </Link>
        )}
      </div>
      {post.is_good ? (
        <span className="badge badge--good" title="精华动态">
          精华
        </span>
      ) : null}
      {aside === undefined ? null : <div className="post-card__aside">{aside}</div>}
    </header>
  );
}

/** A card's footer: 赞, the comments (a link to them in the feed) and 更多. */
function PostCardFoot({ post, full }: { post: Post; full: boolean }) {
  const detailParams = { id: String(post.id) };
  return (
    <footer className="post-card__foot">
      <LikeButton post={post} />
      {full ? (
        <span className="post-stat">
          <IconComment size={18} />
          <span aria-hidden="true">{post.comment_count > 0 ? formatCount(post.comment_count) : '评论'}</span>
          {/* A plain span has no name of its own: the words are in the text, for screen readers only. */}
          <span className="visually-hidden">评论 {post.comment_count}</span>
        </span>
      ) : (
        <Link
          to="/message/detail/$id"
          params={detailParams}
          className="post-stat post-stat--link"
          aria-label={`评论 ${post.comment_count}`}
        >
          <IconComment size={18} />
          <span aria-hidden="true">{post.comment_count > 0 ? formatCount(post.comment_count) : '评论'}</span>
        </Link>
      )}
      <PostMoreButton post={post} />
    </footer>
  );
}

/** 更多: the post's menu (share, complain, delete one's own), whose code loads on first use. */
function PostMoreButton({ post }: { post: Post }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const open = () =>
    void loadChunk(() => import('../post-menu.tsx'))
      .then(({ openCardMenu }) => openCardMenu(post, queryClient, router))
      // A refused delete was already explained by the error hook; a menu that did not load was not.
      .catch((error: unknown) => {
        if (error instanceof ChunkLoadError) toast.error(error.message);
      });
  return (
    <button type="button" className="post-stat post-stat--button post-stat--more" aria-label="更多" aria-haspopup="dialog" onClick={open}>
      <IconMore size={18} />
    </button>
  );
}
