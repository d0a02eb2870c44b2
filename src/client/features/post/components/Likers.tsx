import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import type { UserBrief } from '#shared/schemas.ts';
import { formatCount } from '#shared/count.ts';
import { pagedItems } from '../../../lib/paging.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { IconClose } from '../../../ui/icons-secondary.tsx';
import { ModalDialog } from '../../../ui/overlay/ModalDialog.tsx';
import { Skeleton } from '../../../ui/Skeleton.tsx';
import { ErrorState, ListFooter } from '../../../ui/states.tsx';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { likerKeys, likersQueryOptions } from '../queries.ts';
import '../../../ui/dialog/dialog.css';

const SHOWN = 8;
const AVATAR_SIZE = 28;

function LikerLink({ user, size }: { user: UserBrief; size: number }) {
  return (
    <Link to="/usercenter/$id" params={{ id: String(user.uid) }} className="liker" title={user.nick}>
      <Avatar src={user.avatar} nick={user.nick} size={size} />
      <span className="visually-hidden">{user.nick}</span>
    </Link>
  );
}

/** Every liker, paged, in a dialog. */
function LikersDialog({ postId, total, onClose }: { postId: number; total: number; onClose: () => void }) {
  const query = useInfiniteQuery(likersQueryOptions(postId));
  const titleId = useId();
  return (
    <ModalDialog className="dialog-layer" aria-labelledby={titleId} onDismiss={onClose} onBackdrop={onClose}>
      <div className="dialog likers-dialog">
        <h2 id={titleId} className="dialog__title">
          {formatCount(total)} 人赞过
        </h2>
        <button type="button" className="likers-dialog__close" aria-label="关闭" onClick={onClose}>
          <IconClose />
        </button>
        {query.isError && !query.data ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <>
            <ul className="likers-dialog__list">
              {pagedItems(query.data?.pages).map((user) => (
                <li key={user.uid}>
                  <Link to="/usercenter/$id" params={{ id: String(user.uid) }} className="likers-dialog__user" onClick={onClose}>
                    <Avatar src={user.avatar} nick={user.nick} size={36} />
                    <span>{user.nick}</span>
                  </Link>
                </li>
              ))}
            </ul>
            <ListFooter query={query} />
          </>
        )}
      </div>
    </ModalDialog>
  );
}

/**
 * The likers as the viewer's own like shows them at once (a like or unlike made now, or waiting
 * in the outbox offline): their avatar leads the row while they like the post, and is gone once
 * they do not, whatever the last read of the list says.
 */
function withViewer(likers: UserBrief[], viewer: UserBrief | undefined, liked: boolean): UserBrief[] {
  if (!viewer) return likers;
  const others = likers.filter((user) => user.uid !== viewer.uid);
  return liked ? [viewer, ...others] : others;
}

/** Who liked the post: the newest avatars and 查看全部. `liked`: whether the viewer likes it, as shown. */
export function Likers({ postId, total, liked = false }: { postId: number; total: number; liked?: boolean }) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({ ...likersQueryOptions(postId), enabled: total > 0 });
  // Who is looking, as the app knows it (asked for elsewhere: not by this row).
  const me = useQuery({ ...sessionQueryOptions(), enabled: false }).data;
  const viewer = me ? { uid: me.uid, ucode: me.ucode, nick: me.nick, avatar: me.avatar, is_follow: false } : undefined;
  const [showAll, setShowAll] = useState(false);
  // A like or unlike of this post (here, in a list, in another tab) moves its count: who liked it changed.
  const shownTotal = useRef(total);
  useEffect(() => {
    if (shownTotal.current === total) return;
    shownTotal.current = total;
    void queryClient.invalidateQueries({ queryKey: likerKeys.post(postId) });
  }, [total, postId, queryClient]);
  const isMobile = useLayoutStore((s) => s.isMobile);
  const likers = withViewer(pagedItems(query.data?.pages), viewer, liked).slice(0, SHOWN);
  // Loading, the row is there already with grey avatars: the comments under it do not jump
  // down when the likers arrive.
  const loading = query.isPending && total > 0;
  if (total === 0 || (likers.length === 0 && !loading)) return null;
  const avatars = loading
    ? Array.from({ length: Math.min(total, SHOWN) }, (_, i) => (
        <span key={i} className="liker">
          <Skeleton width={AVATAR_SIZE} height={AVATAR_SIZE} radius="50%" />
        </span>
      ))
    : null;
  return (
    <section className="likers" aria-label="赞过的人">
      {isMobile ? (
        // Avatars of 28 px side by side are too small to tap one by one: on a phone the row is
        // one button to the list, where each liker has a row of their own.
        <button type="button" className="likers__row" onClick={() => setShowAll(true)}>
          <span className="likers__avatars" aria-hidden="true">
            {avatars ??
              likers.map((user) => (
                <span key={user.uid} className="liker">
                  <Avatar src={user.avatar} nick={user.nick} size={AVATAR_SIZE} />
                </span>
              ))}
          </span>
          <span className="likers__count">{formatCount(total)} 人赞过</span>
          <span className="likers__all">查看全部</span>
        </button>
      ) : (
        <>
          <div className="likers__avatars" aria-busy={loading || undefined}>
            {avatars ?? likers.map((user) => <LikerLink key={user.uid} user={user} size={AVATAR_SIZE} />)}
          </div>
          <span className="likers__count">{formatCount(total)} 人赞过</span>
          <button type="button" className="button button--text button--small" onClick={() => setShowAll(true)}>
            查看全部
          </button>
        </>
      )}
      {showAll ? <LikersDialog postId={postId} total={total} onClose={() => setShowAll(false)} /> : null}
    </section>
  );
}
