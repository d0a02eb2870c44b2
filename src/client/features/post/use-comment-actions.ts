import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { CommentBase } from '#shared/schemas.ts';
import { requireLogin } from '../../entities/session/login.ts';
import { sessionQueryOptions } from '../../entities/session/queries.ts';
import { confirm } from '../../ui/dialog/confirm.ts';
import { openPicker } from '../../ui/picker/open-picker.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import type { ReplyTarget } from './components/CommentComposer.tsx';
import { useCommentWrites } from './mutations.ts';

/** What a comment row can do; the list gets them from the post's comments. */
export interface CommentActions {
  viewerUid: number | undefined;
  postAuthorUid: number;
  onReply: (target: ReplyTarget) => void;
  onLike: (comment: CommentBase) => void;
  /** 更多: 投诉 (not on one's own), 删除 (one's own, or any on one's own post). */
  onMore: (comment: CommentBase, offers: { complain: boolean; remove: boolean }) => void;
}

/**
 * The actions of the comments of a post: 回复 and 点赞 ask for a login first (and go on after
 * it), 更多 offers 投诉 (a page of its own) and 删除 (confirmed, through the outbox).
 */
export function useCommentActions(postId: number, postAuthorUid: number, onReply: (target: ReplyTarget) => void): CommentActions {
  const queryClient = useQueryClient();
  const viewerUid = useQuery(sessionQueryOptions()).data?.uid;
  const writes = useCommentWrites(postId);
  const navigate = useNavigate();
  return {
    viewerUid,
    postAuthorUid,
    onReply: (target) => {
      if (requireLogin(queryClient, () => onReply(target))) onReply(target);
    },
    onLike: (comment) => {
      const send = () => void writes.like(comment, !comment.is_like);
      if (requireLogin(queryClient, send)) send();
    },
    onMore: async (comment, offers) => {
      const choice = await openPicker({
        items: [
          ...(offers.complain ? [{ key: 'complain', text: '投诉' }] : []),
          ...(offers.remove ? [{ key: 'delete', text: '删除', danger: true }] : []),
        ],
      });
      if (choice?.key === 'complain') void navigate({ to: '/complain', search: { type: 'comment', id: comment.id } });
      if (choice?.key !== 'delete') return;
      if (!(await confirm({ title: '删除评论', content: '删除后无法恢复，确定删除这条评论吗？', okText: '删除', danger: true }))) return;
      const outcome = await writes.remove(comment.id);
      if (outcome.status === 'sent') toast.success('评论已删除');
      else if (outcome.status === 'queued') toast.info('已加入待发送，联网后删除');
    },
  };
}
