import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, type FormEvent } from 'react';
import { COMMENT_MAX_CHARS } from '#shared/constants.ts';
import { requireLogin } from '../../../entities/session/login.ts';
import { useCommentDrafts } from '../comment-drafts.ts';
import { useCommentDraft } from '../use-comment-draft.ts';
import { useSendComment } from '../use-send-comment.ts';

export interface ReplyTarget {
  id: number;
  nick: string;
}

/**
 * 写评论 / 回复 <nick>, and 发送. The text is the draft of this post (or of this reply) until it
 * is sent or queued in the outbox (offline: it shows under the post as 待发送); a refused send
 * keeps it for the user to fix, and a queued one refused later comes back here with the message.
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
  const { key, text, fieldName } = useCommentDraft(postId, replyTo?.id);
  const { sending, refusal, send } = useSendComment({ postId, replyTo, draftKey: key, empty: !text.trim(), onSent });
  const formRef = useRef<HTMLFormElement>(null);
  const fieldId = useId();
  const label = replyTo ? `回复 ${replyTo.nick}` : '写评论';
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
        name={fieldName}
        className="comment-composer__text"
        rows={rows}
        maxLength={COMMENT_MAX_CHARS}
        placeholder={`${label}…`}
        value={text}
        autoFocus={autoFocus}
        onChange={(e) => useCommentDrafts.getState().write(key, e.target.value)}
      />
      {refusal ? (
        <p className="comment-composer__error" role="alert">
          未发出：{refusal}
        </p>
      ) : null}
      <div className="comment-composer__actions">
        <button type="submit" className="button button--primary button--small" disabled={!text.trim() || sending}>
          {sending ? '发送中…' : '发送'}
        </button>
      </div>
    </form>
  );
}
