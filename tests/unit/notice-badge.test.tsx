/**
 * The installed app's icon follows the login user's unread count, and shows nothing once the
 * login is gone (logged out: the count's owner unmounts).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { LoginUser } from '../../src/shared/schemas.ts';
import { noticeKeys } from '../../src/client/entities/notice/queries.ts';
import { sessionKeys } from '../../src/client/entities/session/queries.ts';
import { useUnreadNotices } from '../../src/client/features/notice/unread.ts';

const ME: LoginUser = { uid: 3, ucode: 'ME', nick: '我', avatar: '', cellphone: '', ctime: 0, student: 0, usertype: 1 };
const setAppBadge = vi.fn(async (_count?: number) => undefined);
const clearAppBadge = vi.fn(async () => undefined);

function Count() {
  return <p>{String(useUnreadNotices())}</p>;
}

beforeEach(() => {
  Object.assign(navigator, { setAppBadge, clearAppBadge });
  setAppBadge.mockClear();
  clearAppBadge.mockClear();
});
afterEach(() => cleanup());

it('shows the unread count on the icon, follows it, and clears it when the login goes', async () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, refetchInterval: false } } });
  queryClient.setQueryData(sessionKeys.user, ME);
  queryClient.setQueryData(noticeKeys.unread(ME.uid), 3);
  const { unmount } = render(
    <QueryClientProvider client={queryClient}>
      <Count />
    </QueryClientProvider>,
  );
  expect(screen.getByText('3')).toBeTruthy();
  expect(setAppBadge).toHaveBeenLastCalledWith(3);
  act(() => queryClient.setQueryData(noticeKeys.unread(ME.uid), 0));
  await waitFor(() => expect(clearAppBadge).toHaveBeenCalledTimes(1));
  act(() => queryClient.setQueryData(noticeKeys.unread(ME.uid), 5));
  await waitFor(() => expect(setAppBadge).toHaveBeenLastCalledWith(5));
  unmount();
  expect(clearAppBadge).toHaveBeenCalledTimes(2);
  queryClient.clear();
});
