import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { FEEDBACK_MAX_CHARS, type ComplainReason } from '#shared/constants.ts';
import { messageForCode } from '#shared/error-messages.ts';
import { ErrorCode } from '#shared/errors.ts';
import { graphemes } from '#shared/text-length.ts';
import { makeWrite } from '../../../entities/outbox/index.ts';
import { useReturnedWrite } from '../../../entities/outbox/use-returned-write.ts';
import { requireLogin } from '../../../entities/session/login.ts';
import { errorText } from '../../../lib/error-text.ts';
import { newClientId } from '../../../lib/ids.ts';
import { ErrorState } from '../../../ui/states.tsx';
import { complainReasonsQueryOptions } from '../queries.ts';
import './complain.css';

export type ComplainTarget = 'post' | 'comment' | 'user';

/**
 * A complaint: a reason from the server's list, optional words up to 500 characters (counted as the
 * server counts them), 提交. The count and the limit show as the user types; the server decides
 * (-2902), and its message shows here. It goes through the outbox: offline it waits
 * (`onDone(true)`), and if the server refuses it later it comes back into this form, words and
 * message, the next time the form opens for its target.
 */
export function ComplainForm({ type, id, onDone }: { type: ComplainTarget; id: number; onDone: (queued: boolean) => void }) {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const reasons = useQuery(complainReasonsQueryOptions());
  const [reason, setReason] = useState<ComplainReason | ''>('');
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // One complaint, one client_id: a retry of the same words is the same complaint.
  const [clientId, setClientId] = useState(newClientId);
  const errorId = useId();
  const length = graphemes(content).length;
  const tooLong = length > FEEDBACK_MAX_CHARS;
  // A queued complaint about this target that the server refused: back here, with why.
  useReturnedWrite(
    'complain',
    (item) => item.data.body.target_type === type && item.data.body.target_id === id,
    !content.trim(),
    (item) => {
      setReason(item.data.body.reason as ComplainReason | '');
      setContent(item.data.body.content ?? '');
      setError(item.error ?? null);
    },
  );

  const send = () => {
    setPending(true);
    makeWrite(queryClient, 'complain', { body: { target_type: type, target_id: id, reason, content: content.trim() } }, clientId)
      .then((outcome) => {
        if (outcome.status !== 'refused') return onDone(outcome.status === 'queued');
        setError(errorText(outcome.error));
        // A refusal the user can fix: the corrected complaint is a new one.
        setClientId(newClientId());
      })
      .finally(() => setPending(false));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    if (!reason && !content.trim()) return setError(messageForCode(ErrorCode.FeedbackInvalid));
    setError(null);
    // Logged out: the login popup, then this same complaint is sent.
    if (!requireLogin(queryClient, () => formRef.current?.requestSubmit())) return;
    send();
  };

  if (reasons.isError) return <ErrorState error={reasons.error} onRetry={() => void reasons.refetch()} />;

  return (
    <form ref={formRef} className="complain-form" onSubmit={onSubmit} noValidate aria-describedby={error ? errorId : undefined}>
      <fieldset className="complain-form__reasons">
        <legend className="section-title">投诉理由</legend>
        {(reasons.data ?? []).map((item) => (
          <label key={item.reason} className="complain-form__reason">
            <input type="radio" name="reason" value={item.reason} checked={reason === item.reason} onChange={() => setReason(item.reason as ComplainReason)} />
            <span>{item.text}</span>
          </label>
        ))}
      </fieldset>
      <label className="complain-form__label" htmlFor={`${errorId}-text`}>
        补充说明（选填）
      </label>
      <textarea
        id={`${errorId}-text`}
        className="complain-form__text"
        rows={5}
        value={content}
        placeholder="请描述具体问题，便于我们核实处理"
        aria-invalid={tooLong}
        onChange={(e) => {
          setContent(e.target.value);
          setError(null);
        }}
      />
      <p className={`complain-form__count${tooLong ? ' complain-form__count--over' : ''}`} aria-live="polite">
        {length}/{FEEDBACK_MAX_CHARS}
      </p>
      <p id={errorId} className="complain-form__error" role="alert">
        {error ?? (tooLong ? messageForCode(ErrorCode.FeedbackTooLong) : null)}
      </p>
      <button type="submit" className="button button--primary complain-form__submit" disabled={pending || reasons.isPending}>
        {pending ? '提交中…' : '提交'}
      </button>
    </form>
  );
}
