import { useQuery } from '@tanstack/react-query';
import { useRenderingFirstScreen } from '../../../lib/first-screen-render.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { FollowUserButton } from './FollowUserButton.tsx';

/**
 * 关注 beside a post's author, on the post's page: a reader follows whom they are reading without
 * leaving it (offline too: the follow waits in the outbox). Not for one's own posts; nothing
 * until the session is known, nor in the first screen (the server's render has none: the
 * hydration of it must write the same, or React renders the whole post again).
 */
export function AuthorFollowButton({ uid, isFollow }: { uid: number; isFollow: boolean }) {
  const session = useQuery(sessionQueryOptions());
  const renderingFirstScreen = useRenderingFirstScreen();
  if (renderingFirstScreen || session.isPending || session.data?.uid === uid) return null;
  return <FollowUserButton uid={uid} isFollow={isFollow} small />;
}
