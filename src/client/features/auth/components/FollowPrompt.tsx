import { Link } from '@tanstack/react-router';
import { IconUsers } from '../../../ui/icons.tsx';
import { EmptyState } from '../../../ui/states.tsx';
import { requestLogin } from '../../../entities/session/login.ts';

/** /follow while logged out: what the tab is for, and the way in. */
export default function FollowLoginPrompt() {
  return (
    <EmptyState
      icon={<IconUsers size={40} />}
      title="登录后查看关注的动态"
      description="关注感兴趣的频道，这里会汇集它们的最新讨论。"
      action={
        <>
          <button type="button" className="button button--primary" onClick={requestLogin}>
            登录
          </button>
          <Link to="/home" className="button button--ghost">
            先逛逛全部动态
          </Link>
        </>
      }
    />
  );
}
