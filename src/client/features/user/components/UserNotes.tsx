import { useInfiniteQuery } from '@tanstack/react-query';
import { fullTime, useReadingClock } from '../../../format/time.ts';
import { pagedItems } from '../../../lib/paging.ts';
import { LoadingRegion, SkeletonLines } from '../../../ui/Skeleton.tsx';
import { EmptyState, ErrorState, ListFooter } from '../../../ui/states.tsx';
import { notesQueryOptions } from '../queries.ts';

/** A user's notes, two at a time (user/note/list: size 2, prev 0), then 加载更多. */
export function UserNotes({ ucode, isSelf }: { ucode: string; isSelf: boolean }) {
  const clock = useReadingClock();
  const query = useInfiniteQuery(notesQueryOptions(ucode));
  if (query.isPending) {
    return (
      <LoadingRegion label="笔记加载中">
        <SkeletonLines lines={3} />
      </LoadingRegion>
    );
  }
  if (query.isError && !query.data) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const notes = pagedItems(query.data.pages);
  if (notes.length === 0) return <EmptyState title={isSelf ? '你还没有笔记' : 'TA 还没有公开的笔记'} />;
  return (
    <>
      <ul className="user-notes">
        {notes.map((note) => (
          <li key={note.id} className="user-notes__note card">
            <p className="user-notes__text">{note.content}</p>
            <time className="user-notes__time" dateTime={new Date(note.update_time).toISOString()}>
              {fullTime(note.update_time, clock?.utcOffsetMinutes)}
            </time>
          </li>
        ))}
      </ul>
      <ListFooter query={query} moreLabel="加载更多" />
    </>
  );
}
