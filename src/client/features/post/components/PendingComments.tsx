import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { outbox } from '../../../entities/outbox/index.ts';
import { isWriteOf, type WriteOf } from '../../../entities/outbox/types.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { useOutbox, writesOf } from '../../../lib/write-queue/store.ts';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { confirm } from '../../../ui/dialog/confirm.ts';
import type { ReplyTarget } from './CommentComposer.tsx';
import '../../../ui/outbox-panel/outbox.css';

export type PendingComment = WriteOf<'comment'>;

/** The viewer's comments and replies on post `postId` that wait in the outbox, in the order they go. */
export function usePendingComments(postId: number): PendingComment[] {
  const viewer = useQuery(sessionQueryOptions()).data?.uid;
  const all = useOutbox((s) => s.items);
  return useMemo(
    () => writesOf(all, viewer).filter((item): item is PendingComment => isWriteOf(item, 'comment') && item.data.body.post_id === postId),
    [all, viewer, postId],
  );
}

/**
 * A list of waiting comments: 待发送 (or 发送中, or 未发出 with the server's message and 编辑),
 * each with 取消. Under the comment box (comments, and replies whose comment is not shown), or
 * under the comment a reply answers (`replies`).
 */
export function PendingComments({
  postId,
  items,
  onReply,
  replies = false,
}: {
  postId: number;
  items: readonly PendingComment[];
  onReply: (target: ReplyTarget) => void;
  replies?: boolean;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const isMobile = useLayoutStore((s) => s.isMobile);
  const sending = useOutbox((s) => s.sending);
  const trying = useOutbox((s) => s.trying);
  // On its way, or its first attempt not over yet.
  const busy = (id: string) => id === sending || trying.includes(id);
  if (items.length === 0) return null;

  const cancel = async (item: PendingComment) => {
    const ok = await confirm({ title: '取消发送', content: '这条评论还没有发出，取消后将不再发送。', okText: '取消发送', cancelText: '保留', danger: true });
    if (ok) await (await outbox(queryClient)).cancel(item.id);
  };
  // Back to its comment box, which takes the words once it is empty.
  const edit = ({ data }: PendingComment) => {
    const replyId = data.body.reply_id;
    if (isMobile) {
      void navigate({ to: '/comment', search: { post_id: postId, reply_id: replyId, reply_to: data.replyTo } });
    } else if (replyId !== undefined) {
      onReply({ id: replyId, nick: data.replyTo ?? '这条评论' });
    } else {
      document.querySelector<HTMLTextAreaElement>('.comment-composer textarea')?.focus();
    }
  };

  return (
    <ul className={`${replies ? 'comment-replies__pending' : 'comment-list'} outbox-pending`} aria-label="待发送的评论">
      {items.map((item) => (
        <li key={item.id} className={replies ? undefined : 'comment-item'}>
          <div className={`comment${replies ? ' comment--reply' : ''}`}>
            <Avatar src={item.data.author.avatar} nick={item.data.author.nick} size={replies ? 28 : 36} />
            <div className="comment__main">
              <div className="comment__head">
                <span className="comment__author">{item.data.author.nick}</span>
                {item.data.replyTo ? (
                  <span className="comment__reply-to">
                    回复 <span className="comment__author-ref">{item.data.replyTo}</span>
                  </span>
                ) : null}
              </div>
              <p className="comment__text comment__text--pending">{item.data.body.content}</p>
              <div className="comment__foot">
                {item.state === 'returned' ? (
                  <span className="outbox-badge outbox-badge--returned">未发出：{item.error}</span>
                ) : (
                  <span className="outbox-badge">{busy(item.id) ? '发送中…' : '待发送'}</span>
                )}
                <span className="outbox-actions">
                  {item.state === 'returned' ? (
                    <button type="button" className="comment__action" onClick={() => edit(item)}>
                      编辑
                    </button>
                  ) : null}
                  {busy(item.id) ? null : (
                    <button type="button" className="comment__action comment__action--danger" onClick={() => void cancel(item)}>
                      取消
                    </button>
                  )}
                </span>
              </div>
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
