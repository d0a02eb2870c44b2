import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { outbox } from '../../../entities/outbox/index.ts';
import { isWriteOf, type WriteOf } from '../../../entities/outbox/types.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { useOutbox, writesOf } from '../../../lib/outbox/store.ts';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { confirm } from '../../../ui/dialog/confirm-store.ts';
import type { ReplyTarget } from './CommentComposer.tsx';
import '../../../ui/outbox/outbox.css';

/**
 * The viewer's comments on this post that wait in the outbox, under the comment box:
 * 待发送 (or 发送中, or 未发出 with the server's message and 编辑), each with 取消.
 */
export function PendingComments({ postId, onReply }: { postId: number; onReply: (target: ReplyTarget) => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const isMobile = useLayoutStore((s) => s.isMobile);
  const viewer = useQuery(sessionQueryOptions()).data?.uid;
  const all = useOutbox((s) => s.items);
  const sending = useOutbox((s) => s.sending);
  const trying = useOutbox((s) => s.trying);
  // On its way, or its first attempt not over yet.
  const busy = (id: string) => id === sending || trying.includes(id);
  const comments = useMemo(
    () => writesOf(all, viewer).filter((item): item is WriteOf<'comment'> => isWriteOf(item, 'comment') && item.data.body.post_id === postId),
    [all, viewer, postId],
  );
  if (comments.length === 0) return null;

  const cancel = async (item: WriteOf<'comment'>) => {
    const ok = await confirm({ title: '取消发送', content: '这条评论还没有发出，取消后将不再发送。', okText: '取消发送', cancelText: '保留', danger: true });
    if (ok) await (await outbox(queryClient)).cancel(item.id);
  };
  // Back to its comment box, which takes the words once it is empty.
  const edit = ({ data }: WriteOf<'comment'>) => {
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
    <ul className="comment-list outbox-pending" aria-label="待发送的评论">
      {comments.map((item) => (
        <li key={item.id} className="comment-item">
          <div className="comment">
            <Avatar src={item.data.author.avatar} nick={item.data.author.nick} size={36} />
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
