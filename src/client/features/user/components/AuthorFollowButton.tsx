import { useQuery } from '@tanstack/react-query';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { FollowUserButton } from './FollowUserButton.tsx';

/**
 * 关注 beside a post's author, on the post's page: a reader follows whom they are reading without
 * leaving it (offline too: the follow waits in the outbox). Not for one's own posts; nothing
 * until the session is known (the page the server rendered has none: its hydration matches).
 */
export function AuthorFollowButton({ uid, isFollow }: { uid: number; isFollow: boolean }) {
  const session = useQuery(sessionQueryOptions());
  if (session.isPending || session.data?.uid === uid) return null;
  return <FollowUserButton uid={uid} isFollow={isFollow} small className="post-card__follow" />;
}
