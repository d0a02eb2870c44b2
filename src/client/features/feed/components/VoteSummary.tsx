import { useState } from 'react';
import type { Vote } from '#shared/schemas.ts';
import { fullTime } from '../../../format/time.ts';
import { formatCount } from '#shared/format.ts';

export function votePercent(count: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((count / total) * 100);
}

/** A vote as a summary: options with counts and percentages (voting itself comes later). */
export function VoteSummary({ vote, now }: { vote: Vote; now?: number }) {
  const [shownAt] = useState(() => Date.now());
  const at = now ?? shownAt;
  const closed = vote.end_time !== null && vote.end_time <= at;
  const total = vote.options.reduce((sum, option) => sum + option.count, 0) || vote.total;
  return (
    <section className="vote" aria-label={`投票：${vote.title}`} onClick={(e) => e.stopPropagation()}>
      <header className="vote__head">
        <span className="vote__badge">{vote.multiple ? '多选' : '单选'}</span>
        <span className="vote__title">{vote.title}</span>
      </header>
      <ul className="vote__options">
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
      <p className="vote__foot">
        {formatCount(vote.total)} 人参与
        {vote.end_time !== null ? ` · ${closed ? '已结束' : `${fullTime(vote.end_time)} 截止`}` : ''}
      </p>
    </section>
  );
}
