/**
 * The poll's 截止时间 in the composer: a day and a time of day chosen from lists that read in
 * Chinese, which set the poll's end time as the datetime-local field did (its value, then
 * post/add's end_time in ms); 不设截止时间 takes it away.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { postOf } from '../../src/client/features/compose/post-write.ts';
import { ComposerVote } from '../../src/client/features/compose/components/ComposerParts.tsx';
import { emptyDraft, flushDrafts, useDrafts, type PostDraft } from '../../src/client/features/compose/drafts.ts';

const KEY = 'poll-deadline';
const draft = () => useDrafts.getState().stored[KEY] as PostDraft;

function Poll() {
  const vote = useDrafts((s) => (s.stored[KEY] as PostDraft).vote);
  return <ComposerVote draftKey={KEY} vote={vote} />;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  // A Thursday morning, the reader's own clock.
  vi.setSystemTime(new Date(2025, 11, 4, 9, 40));
  useDrafts.setState({
    stored: { [KEY]: { ...emptyDraft(), publishParams: { ...emptyDraft().publishParams, content: '投票', channel_id: [1] }, vote: { title: '去哪', multiple: false, options: ['甲', '乙'], endsAt: '' } } },
    loaded: true,
  });
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await flushDrafts();
});

describe('the poll’s 截止时间', () => {
  it('is a day and a time read in Chinese, setting the end time as before', () => {
    render(<Poll />);
    const day = screen.getByLabelText('截止时间') as HTMLSelectElement;
    expect(day.tagName).toBe('SELECT');
    expect([...day.options].slice(0, 3).map((option) => option.text)).toEqual(['不设截止时间', '12月4日 周四（今天）', '12月5日 周五（明天）']);
    expect(screen.queryByLabelText('截止时间（时刻）')).toBeNull();

    fireEvent.change(day, { target: { value: '2025-12-05' } });
    expect(draft().vote?.endsAt).toBe('2025-12-05T20:00');
    const time = screen.getByLabelText('截止时间（时刻）') as HTMLSelectElement;
    expect(time.value).toBe('20:00');
    fireEvent.change(time, { target: { value: '18:30' } });
    expect(draft().vote?.endsAt).toBe('2025-12-05T18:30');
    expect(postOf(draft()).body.vote?.end_time).toBe(new Date(2025, 11, 5, 18, 30).getTime());

    // Another day keeps the time chosen; a day chosen afresh today starts at the next half hour.
    fireEvent.change(day, { target: { value: '2025-12-04' } });
    expect(draft().vote?.endsAt).toBe('2025-12-04T18:30');
    fireEvent.change(day, { target: { value: '' } });
    expect(draft().vote?.endsAt).toBe('');
    expect(postOf(draft()).body.vote?.end_time).toBeUndefined();
    fireEvent.change(screen.getByLabelText('截止时间'), { target: { value: '2025-12-04' } });
    expect(draft().vote?.endsAt).toBe('2025-12-04T10:00');
  });
});
