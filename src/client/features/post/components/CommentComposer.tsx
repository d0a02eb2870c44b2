import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { COMMENT_MAX_CHARS } from '#shared/constants.ts';
import { outbox } from '../../../entities/outbox/index.ts';
import { isWriteOf } from '../../../entities/outbox/types.ts';
import { requireLogin } from '../../../entities/session/login.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { useOutbox } from '../../../lib/write-queue/store.ts';
import { useEarlyValue } from '../../../lib/early-acts.ts';
import { toast } from '../../../ui/toast/toast-store.ts';
import { draftKey, useCommentDrafts } from '../comment-drafts.ts';
import { useCommentWrites } from '../mutations.ts';

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
  const viewer = useQuery(sessionQueryOptions()).data?.uid;
  const key = draftKey(postId, replyTo?.id, viewer);
  // A visitor's words show as the user's until they are taken up (below).
  const draft = useCommentDrafts((s) => s.drafts[key] ?? (viewer === undefined ? undefined : s.drafts[draftKey(postId, replyTo?.id)]));
  const { write, renew, clear, adopt } = useCommentDrafts.getState();
  // Words written before the login are the user's once they are logged in.
  useEffect(() => {
    if (viewer !== undefined) adopt(draftKey(postId, replyTo?.id), key);
  }, [viewer, postId, replyTo?.id, key, adopt]);
  const writes = useCommentWrites(postId);
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const fieldId = useId();
  const text = draft?.text ?? '';
  const label = replyTo ? `回复 ${replyTo.nick}` : '写评论';
  const [refusal, setRefusal] = useState<string | null>(null);
  const returnedId = useOutbox(
    (s) =>
      s.items.find((item) => item.state === 'returned' && isWriteOf(item, 'comment') && draftKey(item.data.body.post_id, item.data.body.reply_id, item.uid) === key)
        ?.id,
  );
  const empty = !text.trim();
  // The post's own box is on the server's page: words typed there before the app started are this
  // draft's, after any kept from before (nothing is lost).
  const fieldName = replyTo ? undefined : `comment-${postId}`;
  useEarlyValue(fieldName, (typed) => {
    const early = [typed].flat().join('');
    const kept = useCommentDrafts.getState().drafts[key]?.text ?? '';
    write(key, kept.trim() && kept !== early ? `${kept}\n${early}` : early);
  });

  // A queued comment the server refused comes back into this box, when the box is empty.
  useEffect(() => {
    if (!returnedId || !empty) return;
    void outbox(queryClient)
      .then((writes) => writes.takeReturned((item) => item.id === returnedId))
      .then((item) => {
        if (!item || !isWriteOf(item, 'comment')) return;
        write(key, item.data.body.content);
        renew(key);
        setRefusal(item.error ?? null);
      });
  }, [returnedId, empty, key, queryClient, write, renew]);

  const send = () => {
    const current = useCommentDrafts.getState().drafts[key];
    if (!current?.text.trim() || sending) return;
    setRefusal(null);
    // The words move under the post (发送中, or 待发送 offline) and the box is free at once; they
    // come back into it if the server refuses them, as a new comment (a new client_id).
    const giveBack = () => {
      write(key, current.text);
      renew(key);
    };
    clear(key);
    setSending(true);
    void writes
      .add({ content: current.text.trim(), replyId: replyTo?.id, replyTo: replyTo?.nick, clientId: current.clientId })
      .then((outcome) => {
        if (outcome.status === 'refused') return giveBack();
        if (outcome.status === 'queued') toast.info('已加入待发送，联网后自动发出');
        else toast.success(replyTo ? '回复成功' : '评论成功');
        onSent?.();
      })
      .finally(() => setSending(false));
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
        name={fieldName}
        className="comment-composer__text"
        rows={rows}
        maxLength={COMMENT_MAX_CHARS}
        placeholder={`${label}…`}
        value={text}
        autoFocus={autoFocus}
        onChange={(e) => write(key, e.target.value)}
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
