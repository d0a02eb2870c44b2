import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { Vote } from '#shared/schemas.ts';
import { formatCount } from '#shared/count.ts';
import { requireLogin } from '../../../entities/session/login.ts';
import { fullTime, useReadingClock } from '../../../format/time.ts';
import { useEarlyValue } from '../../../lib/early-value.ts';
import { useVote } from '../vote.ts';

export function votePercent(count: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((count / total) * 100);
}

/**
 * A post's poll: its options as radio buttons (single choice) or checkboxes (multiple) with
 * 投票; once voted, or closed, the results with percentages and one's own choice marked.
 */
export default function PostVote({ postId, vote, now }: { postId: number; vote: Vote; now?: number }) {
  const queryClient = useQueryClient();
  const clock = useReadingClock();
  const [shownAt] = useState(() => Date.now());
  const [chosen, setChosen] = useState<number[]>([]);
  const fieldName = `vote-${vote.vote_id}`;
  // Chosen on the server's page before the app started: still chosen, and 投票 can be tapped.
  useEarlyValue(fieldName, (values) => {
    const ids = [values].flat().map(Number);
    setChosen(vote.options.filter((option) => ids.includes(option.option_id)).map((option) => option.option_id));
  });
  const { vote: sendVote, pending } = useVote(postId);
  const titleId = useId();
  const closed = vote.end_time !== null && vote.end_time <= (now ?? clock?.now ?? shownAt);
  const total = vote.options.reduce((sum, option) => sum + option.count, 0) || vote.total;

  const choose = (optionId: number, on: boolean) =>
    setChosen((current) => (vote.multiple ? (on ? [...current, optionId] : current.filter((id) => id !== optionId)) : [optionId]));
  const send = () => sendVote(chosen);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0 || pending) return;
    // Logged out: the login popup, then this same choice is sent.
    if (requireLogin(queryClient, send)) send();
  };

  const head = (
    <header className="vote__head">
      <span className="vote__badge">{vote.multiple ? '多选' : '单选'}</span>
      <span className="vote__title" id={titleId}>
        {vote.title}
      </span>
    </header>
  );
  const foot = (
    <p className="vote__foot">
      {formatCount(vote.total)} 人参与
      {vote.end_time !== null ? ` · ${closed ? '已结束' : `${fullTime(vote.end_time, clock?.utcOffsetMinutes)} 截止`}` : ''}
    </p>
  );

  if (vote.is_voted || closed) {
    return (
      <section className="vote" aria-labelledby={titleId}>
        {head}
        <VoteResults vote={vote} total={total} />
        {foot}
      </section>
    );
  }

  return (
    <form className="vote" onSubmit={onSubmit}>
      <fieldset className="vote__fieldset" aria-labelledby={titleId}>
        {head}
        <div className="vote__options">
          {vote.options.map((option) => (
            <label key={option.option_id} className="vote__option vote__option--choice">
              <input
                type={vote.multiple ? 'checkbox' : 'radio'}
                name={fieldName}
                value={option.option_id}
                checked={chosen.includes(option.option_id)}
                onChange={(e) => choose(option.option_id, e.target.checked)}
              />
              <span className="vote__text">{option.text}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="vote__actions">
        {foot}
        <button type="submit" className="button button--primary button--small" disabled={chosen.length === 0 || pending}>
          {pending ? '提交中…' : '投票'}
        </button>
      </div>
    </form>
  );
}

/** A poll's results: each option's share of `total` as a bar and a percentage, one's own choices marked. */
function VoteResults({ vote, total }: { vote: Vote; total: number }) {
  return (
    <ul className="vote__options" aria-label="投票结果">
      {vote.options.map((option) => {
        const percent = votePercent(option.count, total);
        return (
          <li key={option.option_id} className={`vote__option${option.is_voted ? ' vote__option--mine' : ''}`}>
            <span className="vote__bar" style={{ width: `${percent}%` }} aria-hidden="true" />
            <span className="vote__text">
              {option.text}
              {option.is_voted ? <span className="vote__mine">（已选）</span> : null}
            </span>
            <span className="vote__count">
              {formatCount(option.count)}票 · {percent}%
            </span>
          </li>
        );
      })}
    </ul>
  );
}
