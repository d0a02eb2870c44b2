import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { FEEDBACK_MAX_CHARS, type ComplainReason } from '#shared/constants.ts';
import { endpoints } from '#shared/endpoints.ts';
import { messageForCode } from '#shared/error-messages.ts';
import { ErrorCode } from '#shared/errors.ts';
import { graphemes } from '#shared/format.ts';
import { requireLogin } from '../../../entities/session/login.ts';
import { errorText } from '../../../lib/error-text.ts';
import { isApiError, request } from '../../../lib/http.ts';
import { newClientId } from '../../../lib/ids.ts';
import { ErrorState } from '../../../ui/states.tsx';
import { complainReasonsQueryOptions } from '../queries.ts';
import './complain.css';

export type ComplainTarget = 'post' | 'comment' | 'user';

/**
 * A complaint (SPEC.md sections 5 and 8): a reason from the server's list, optional words up to
 * 500 characters (counted as the server counts them), 提交. Both limits show before sending;
 * the server's own message shows after.
 */
export function ComplainForm({ type, id, onDone }: { type: ComplainTarget; id: number; onDone: () => void }) {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const reasons = useQuery(complainReasonsQueryOptions());
  const [reason, setReason] = useState<ComplainReason | ''>('');
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  // One complaint, one client_id: a retry of the same words is the same complaint.
  const [clientId, setClientId] = useState(newClientId);
  const errorId = useId();
  const length = graphemes(content).length;
  const tooLong = length > FEEDBACK_MAX_CHARS;

  const submit = useMutation({
    mutationFn: () => request(endpoints.complainAdd, { target_type: type, target_id: id, reason, content: content.trim(), client_id: clientId }),
    // Its messages show here, in the form; the login flow still runs for -2000.
    meta: { silent: true },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (submit.isPending) return;
    if (tooLong) return setError(messageForCode(ErrorCode.FeedbackTooLong));
    if (!reason && !content.trim()) return setError(messageForCode(ErrorCode.FeedbackInvalid));
    setError(null);
    // Logged out: the login popup, then this same complaint is sent.
    if (!requireLogin(queryClient, () => formRef.current?.requestSubmit())) return;
    submit.mutate(undefined, {
      onSuccess: onDone,
      onError: (e) => {
        setError(errorText(e));
        // A refusal the user can fix: the corrected complaint is a new one.
        if (isApiError(e) && e.kind === 'business') setClientId(newClientId());
      },
    });
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
      <button type="submit" className="button button--primary complain-form__submit" disabled={submit.isPending || reasons.isPending}>
        {submit.isPending ? '提交中…' : '提交'}
      </button>
    </form>
  );
}
