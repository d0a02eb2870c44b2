import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import type { ImageAttach } from '#shared/schemas.ts';
import { splitTopicTags } from '#shared/topic-tags.ts';
import { useChannelNames } from '../../../entities/channel/names.ts';
import { outbox } from '../../../entities/outbox/index.ts';
import { isWriteOf, type WriteOf } from '../../../entities/outbox/types.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import type { Picture } from '../../../lib/picture.ts';
import { useOutbox, writesOf } from '../../../lib/write-queue/store.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { confirm } from '../../../ui/dialog/confirm.ts';
import { fullTime, readableTime } from '../../../format/time.ts';
import { ImageGrid } from './ImageGrid.tsx';
import { Chips } from './PostCard.tsx';
import './feed.css';
import '../../../ui/outbox-panel/outbox.css';

/** The pictures of a waiting post: its Blobs (object URLs, revoked when no longer shown) or what was uploaded. */
function usePictures(images: readonly Picture[]): ImageAttach[] {
  const pictures = useMemo(
    () =>
      images.flatMap((image): ImageAttach[] => {
        const url = image.url ?? (image.blob ? URL.createObjectURL(image.blob) : undefined);
        return url ? [{ type: 'image', url, width: image.width ?? 1, height: image.height ?? 1 }] : [];
      }),
    [images],
  );
  useEffect(() => () => pictures.forEach(({ url }) => url.startsWith('blob:') && URL.revokeObjectURL(url)), [pictures]);
  return pictures;
}

/**
 * A post waiting in the outbox, laid out as the card it will become (author, time, text,
 * pictures, channels and topics); where that card has its actions, its state and 取消 / 编辑.
 * `sending`: on its way, or its first attempt not over yet.
 */
function PendingPost({ item, sending }: { item: WriteOf<'post'>; sending: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { author, body, images } = item.data;
  const pictures = usePictures(images);
  const channelIds = useMemo(() => (body.channel_id ?? []).map(Number), [body.channel_id]);
  const channels = useChannelNames(channelIds);
  const topics = useMemo(() => splitTopicTags(body.topic_tags ?? '').map((name) => ({ topic_name: name })), [body.topic_tags]);
  const returned = item.state === 'returned';
  const cancel = async () => {
    const ok = await confirm({ title: '取消发送', content: '这条动态还没有发布，取消后将不再发送。', okText: '取消发送', cancelText: '保留', danger: true });
    if (ok) await (await outbox(queryClient)).cancel(item.id);
  };
  return (
    <article className="post-card outbox-pending" aria-label={returned ? '未发布的动态' : '待发送的动态'}>
      <header className="post-card__head">
        <span className="post-card__avatar" aria-hidden="true">
          <Avatar src={author.avatar} nick={author.nick} size={40} />
        </span>
        <div className="post-card__meta">
          <span className="post-card__author">{author.nick}</span>
          <time className="post-card__time" dateTime={new Date(item.at).toISOString()} title={fullTime(item.at)}>
            {readableTime(item.at)}
          </time>
        </div>
      </header>
      <div className="post-content">
        <p className="post-content__text">{body.content}</p>
      </div>
      <ImageGrid images={pictures} alt={`${author.nick}的动态`} />
      <Chips channels={channels} topics={topics} />
      <footer className="post-card__foot outbox-pending__foot">
        {returned ? (
          <span className="outbox-badge outbox-badge--returned">未发布：{item.error}</span>
        ) : (
          <span className="outbox-badge">{sending ? '发送中…' : '待发送'}</span>
        )}
        <span className="outbox-actions">
          {returned ? (
            // The composer takes it back as the draft, with the message.
            <button type="button" className="button button--text button--small" onClick={() => void navigate({ to: '.', search: (prev) => ({ ...prev, compose: 1 as const }) })}>
              编辑
            </button>
          ) : null}
          {sending ? null : (
            <button type="button" className="button button--text button--small" onClick={() => void cancel()}>
              取消
            </button>
          )}
        </span>
      </footer>
    </article>
  );
}

/** The viewer's posts waiting in the outbox, at the top of the feed, marked 待发送. */
export default function PendingPosts() {
  const viewer = useQuery(sessionQueryOptions()).data?.uid;
  const all = useOutbox((s) => s.items);
  const sending = useOutbox((s) => s.sending);
  const trying = useOutbox((s) => s.trying);
  const posts = useMemo(() => writesOf(all, viewer).filter((item) => isWriteOf(item, 'post')).reverse(), [all, viewer]);
  if (posts.length === 0) return null;
  return (
    <section className="post-list" aria-label="待发送的动态">
      {posts.map((item) => (
        <PendingPost key={item.id} item={item} sending={item.id === sending || trying.includes(item.id)} />
      ))}
    </section>
  );
}
