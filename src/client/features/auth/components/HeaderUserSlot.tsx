import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Avatar } from '../../../ui/Avatar.tsx';
import { useRenderingFirstScreen } from '../../../lib/first-screen-render.ts';
import { toast } from '../../../ui/toast/toast-store.ts';
import { requestLogin } from '../../../entities/session/login.ts';
import { loadChunk } from '../../../lib/chunk.ts';
import { sessionQueryOptions, universityQueryOptions } from '../../../entities/session/queries.ts';
import './header-user.css';

/**
 * The header's user area, in both layouts: a 登录 button when logged out (or still unknown),
 * the avatar and nick when logged in, opening a menu with the user centre and 退出登录.
 */
export function HeaderUserSlot() {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQueryOptions());
  const user = session.data;
  const university = useQuery({ ...universityQueryOptions(user?.uid ?? 0), enabled: Boolean(user) });
  const navigate = useNavigate();
  const renderingFirstScreen = useRenderingFirstScreen();

  // While the first check runs, hold the place: no 登录 flash for someone logged in. So does the
  // first screen (the server's, which knows no session, and its hydration).
  if (renderingFirstScreen || (session.isPending && session.fetchStatus === 'fetching')) {
    return <span className="header-user header-user--pending" aria-hidden="true" />;
  }
  if (!user) {
    return (
      <button type="button" className="button button--primary button--small header-login" onClick={requestLogin}>
        登录
      </button>
    );
  }

  // The menu's code comes with its first opening.
  const openMenu = () =>
    loadChunk(() => import('../account-menu.ts')).then(
      (menu) => menu.openAccountMenu(user, queryClient, navigate),
      (error: Error) => toast.error(error.message),
    );

  return (
    <button type="button" className="header-user" aria-haspopup="dialog" aria-label={`账号菜单：${user.nick}`} onClick={openMenu}>
      <Avatar src={user.avatar} nick={user.nick} size={30} />
      <span className="header-user__nick">{user.nick}</span>
      {university.data ? <span className="header-user__badge">高校</span> : null}
    </button>
  );
}
