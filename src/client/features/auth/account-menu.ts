/** The header's account menu, in both layouts: 我的主页, 内容审核 for a moderator, and 退出登录. Loaded when first opened. */
import type { QueryClient } from '@tanstack/react-query';
import type { useNavigate } from '@tanstack/react-router';
import type { LoginUser } from '#shared/schemas.ts';
import { openPicker } from '../../ui/picker/open-picker.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { logout } from './mutations.ts';

export async function openAccountMenu(user: Pick<LoginUser, 'uid' | 'nick' | 'is_moderator'>, queryClient: QueryClient, navigate: ReturnType<typeof useNavigate>): Promise<void> {
  const choice = await openPicker({
    title: user.nick,
    items: [
      { key: 'home', text: '我的主页' },
      ...(user.is_moderator ? [{ key: 'moderation', text: '内容审核' }] : []),
      { key: 'logout', text: '退出登录', danger: true },
    ],
  });
  if (choice?.key === 'home') void navigate({ to: '/usercenter/$id', params: { id: String(user.uid) } });
  if (choice?.key === 'moderation') void navigate({ to: '/moderation' });
  if (choice?.key === 'logout') {
    logout(queryClient).then(
      (done) => done && toast.success('已退出登录'),
      (error: Error) => toast.error(error.message),
    );
  }
}
