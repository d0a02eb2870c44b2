import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, type FormEvent } from 'react';
import { COMMENT_MAX_CHARS } from '#shared/constants.ts';
import { requireLogin } from '../../../entities/session/login.ts';
import { isApiError } from '../../../lib/http.ts';
import { toast } from '../../../ui/toast/toast-store.ts';
import { draftKey, useCommentDrafts } from '../comment-drafts.ts';
import { useAddComment } from '../mutations.ts';

export interface ReplyTarget {
  id: number;
  nick: string;
}

/**
 * 写评论 / 回复 <nick>, and 发送. The text is the draft of this post (or of this reply) until it
 * is sent; a refused send keeps it for the user to fix.
 */
export function CommentComposer({
  postId,
  replyTo = null,
  onCancelReply,
  onSent,
  autoFocus = false,
  rows = 3,
}: {
  postId: number;
  replyTo?: ReplyTarget | null;
  onCancelReply?: () => void;
  onSent?: () => void;
  autoFocus?: boolean;
  rows?: number;
}) {
  const queryClient = useQueryClient();
  const key = draftKey(postId, replyTo?.id);
  const draft = useCommentDrafts((s) => s.drafts[key]);
  const { write, renew, clear } = useCommentDrafts.getState();
  const add = useAddComment(postId);
  const formRef = useRef<HTMLFormElement>(null);
  const fieldId = useId();
  const text = draft?.text ?? '';
  const label = replyTo ? `回复 ${replyTo.nick}` : '写评论';

  const send = () => {
    const current = useCommentDrafts.getState().drafts[key];
    if (!current?.text.trim() || add.isPending) return;
    add.mutate(
      { content: current.text.trim(), replyId: replyTo?.id, clientId: current.clientId },
      {
        onSuccess: () => {
          clear(key);
          toast.success(replyTo ? '回复成功' : '评论成功');
          onSent?.();
        },
        onError: (error) => {
          if (isApiError(error) && error.kind === 'business') renew(key);
        },
      },
    );
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Logged out: the login popup, then this comment is sent.
    if (requireLogin(queryClient, () => formRef.current?.requestSubmit())) send();
  };

  return (
    <form ref={formRef} className="comment-composer" onSubmit={onSubmit}>
      <label htmlFor={fieldId} className="visually-hidden">
        {label}
      </label>
      {replyTo ? (
        <p className="comment-composer__reply">
          回复 <strong>{replyTo.nick}</strong>
          {onCancelReply ? (
            <button type="button" className="button button--text button--small" onClick={onCancelReply}>
              取消回复
            </button>
          ) : null}
        </p>
      ) : null}
      <textarea
        id={fieldId}
        className="comment-composer__text"
        rows={rows}
        maxLength={COMMENT_MAX_CHARS}
        placeholder={`${label}…`}
        value={text}
        autoFocus={autoFocus}
        onChange={(e) => write(key, e.target.value)}
      />
      <div className="comment-composer__actions">
        <button type="submit" className="button button--primary button--small" disabled={!text.trim() || add.isPending}>
          {add.isPending ? '发送中…' : '发送'}
        </button>
      </div>
    </form>
  );
}
