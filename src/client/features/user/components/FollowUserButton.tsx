import { useFollowUser } from '../follow.ts';

/** 关注 / 已关注, shown at once; logged out, the login popup, then the follow. */
export function FollowUserButton({
  uid,
  isFollow,
  className = '',
  small = false,
  onToggle,
}: {
  uid: number;
  isFollow: boolean;
  className?: string;
  small?: boolean;
  /** Told of each tap, with the state asked for. */
  onToggle?: (on: boolean) => void;
}) {
  const follow = useFollowUser(uid);
  return (
    <button
      type="button"
      className={`button ${small ? 'button--small ' : ''}${className} ${isFollow ? 'button--ghost' : 'button--primary'}`}
      aria-pressed={isFollow}
      onClick={() => {
        onToggle?.(!isFollow);
        follow(!isFollow);
      }}
    >
      {isFollow ? '已关注' : '关注'}
    </button>
  );
}
