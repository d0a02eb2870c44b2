import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { credentialHeaders, deviceKindOf } from '../../src/client/entities/session/credentials.ts';
import { LoginDialog } from '../../src/client/features/auth/components/LoginDialog.tsx';
import { installSession } from '../../src/client/features/auth/install.ts';
import { handleLoggedInElsewhere } from '../../src/client/features/auth/logged-in-elsewhere.ts';
import { closeLoginDialog, useLoginDialogStore } from '../../src/client/features/auth/login-store.ts';
import { sessionKeys } from '../../src/client/entities/session/queries.ts';
import {
  clearStoredLogin,
  ENDED_ELSEWHERE_KEY,
  LOGIN_INFO_KEY,
  LOGIN_USER_KEY,
  readStoredLogin,
  rememberLoginUser,
  writeStoredLogin,
} from '../../src/client/entities/session/stored-login.ts';
import { loginUserFromNative, nativeLoginUser } from '../../src/client/entities/session/native-user.ts';
import { detectEnvironment } from '../../src/client/platform/environment.ts';
import { useConfirmStore } from '../../src/client/ui/dialog/confirm-store.ts';
import { endpoints } from '../../src/shared/endpoints.ts';
import { isApiError, request } from '../../src/client/lib/http.ts';
import { clearLogoutPending, pendingLogout } from '../../src/client/lib/logout-pending.ts';
import { markLogoutPending } from '../../src/client/lib/mark-logout-pending.ts';
import { toast } from '../../src/client/ui/toast/toast-store.ts';

const IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36';
const HARMONY = 'Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 Mobile';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';

afterEach(() => {
  cleanup();
  clearStoredLogin();
  clearLogoutPending();
  delete window.GeekTimeApp;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('stored login info', () => {
  it('keeps ticket and deviceId under one key, and survives a corrupt entry', () => {
    writeStoredLogin({ ticket: 't1', deviceId: 'd1' });
    expect(JSON.parse(localStorage.getItem(LOGIN_INFO_KEY)!)).toEqual({ ticket: 't1', deviceId: 'd1' });
    expect(readStoredLogin()).toEqual({ ticket: 't1', deviceId: 'd1' });
    localStorage.setItem(LOGIN_INFO_KEY, '{not json');
    expect(readStoredLogin()).toBeNull();
  });
});

describe('request credentials', () => {
  it('sends nothing extra from a plain browser: the cookie carries the ticket', () => {
    writeStoredLogin({ ticket: 't1', deviceId: 'd1' });
    expect(credentialHeaders(detectEnvironment(DESKTOP))).toEqual({});
  });

  it('sends the stored Ticket and Device-Id from a WeChat mini-program', () => {
    writeStoredLogin({ ticket: 't1', deviceId: 'd1' });
    const env = detectEnvironment(`${ANDROID} MicroMessenger/8.0 miniProgram`);
    expect(credentialHeaders(env)).toEqual({ ticket: 't1', 'device-id': 'd1' });
  });

  it("sends the app's ticket only from iOS 2.6.0+, Android 2.7.3+ or Harmony", () => {
    window.GeekTimeApp = { getLoginInfo: () => ({ ticket: 'app-ticket', deviceId: 'app-device' }) };
    const headers = { ticket: 'app-ticket', 'device-id': 'app-device' };
    expect(credentialHeaders(detectEnvironment(`${IOS} GeekTime/2.6.0`))).toEqual(headers);
    expect(credentialHeaders(detectEnvironment(`${IOS} GeekTime/2.5.9`))).toEqual({});
    expect(credentialHeaders(detectEnvironment(`${ANDROID} GeekTime/2.7.3`))).toEqual(headers);
    expect(credentialHeaders(detectEnvironment(`${ANDROID} GeekTime/2.7.2`))).toEqual({});
    expect(credentialHeaders(detectEnvironment(`${HARMONY} GeekTime/1.0.0`))).toEqual(headers);
  });

  it('logs in as a mobile device from phones and in-app web views, as pc otherwise', () => {
    expect(deviceKindOf(detectEnvironment(DESKTOP))).toBe('pc');
    expect(deviceKindOf(detectEnvironment(IOS))).toBe('mobile');
    expect(deviceKindOf(detectEnvironment(`${DESKTOP} MicroMessenger/8.0`))).toBe('mobile');
  });
});

describe('the login user from the native app', () => {
  const raw = { uid: 7, avatar: '/a.png', cellphone: '138****1234', create_time: 1700000000, nickname: '小红', is_student: 1 };

  it('maps the app fields: nickname, create_time in seconds, is_student, type defaulting to 1', () => {
    expect(loginUserFromNative(raw)).toEqual({
      uid: 7,
      ucode: '',
      nick: '小红',
      avatar: '/a.png',
      cellphone: '138****1234',
      ctime: 1700000000000,
      student: 1,
      usertype: 1,
    });
    expect(loginUserFromNative({ ...raw, is_student: 0, type: 2 })).toMatchObject({ student: 0, usertype: 2 });
    expect(loginUserFromNative(null)).toBeNull();
    expect(loginUserFromNative({ nickname: 'no uid' })).toBeNull();
  });

  it('asks the app only from version 2.5.1, otherwise the account service', async () => {
    window.GeekTimeApp = { getUserInfo: async () => raw };
    expect(await nativeLoginUser(detectEnvironment(`${IOS} GeekTime/2.5.1`))).toMatchObject({ uid: 7, nick: '小红' });
    expect(await nativeLoginUser(detectEnvironment(`${IOS} GeekTime/2.5.0`))).toBeUndefined();
    expect(await nativeLoginUser(detectEnvironment(DESKTOP))).toBeUndefined();
    window.GeekTimeApp = { getUserInfo: () => null };
    expect(await nativeLoginUser(detectEnvironment(`${ANDROID} GeekTime/2.8.0`))).toBeNull();
  });
});

describe('HTTP 452: logged in on another device', () => {
  let images: string[];
  beforeEach(() => {
    images = [];
    class FakeImage {
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      set src(value: string) {
        images.push(value);
        queueMicrotask(() => this.onload?.());
      }
    }
    vi.stubGlobal('Image', FakeImage);
  });

  it('deletes the ticket, logs out and shows 下线通知 once, whose 确定 opens login', async () => {
    writeStoredLogin({ ticket: 'stored-ticket', deviceId: 'd' });
    const queryClient = new QueryClient();
    queryClient.setQueryData(sessionKeys.user, { uid: 1 });
    const handled = Promise.all([handleLoggedInElsewhere(queryClient), handleLoggedInElsewhere(queryClient)]);
    await waitFor(() => expect(useConfirmStore.getState().current).not.toBeNull());
    expect(images).toEqual(['/serv/v1/user/ticket/delete?ticket=stored-ticket']);
    expect(queryClient.getQueryData(sessionKeys.user)).toBeNull();
    expect(readStoredLogin()).toBeNull();
    const dialog = useConfirmStore.getState().current!;
    expect(dialog.title).toBe('下线通知');
    expect(String(dialog.content)).toContain('如果这不是您本人的操作');
    expect(dialog.okText).toBe('确定');
    expect(dialog.cancelText).toBeNull();
    act(() => useConfirmStore.getState().settle(true));
    await handled;
    expect(useLoginDialogStore.getState().open).toBe(true);
    useLoginDialogStore.getState().close();
  });

  it('comes back when a toast replaces it, until the user answers it', async () => {
    const handled = handleLoggedInElsewhere(new QueryClient());
    await waitFor(() => expect(useConfirmStore.getState().current?.title).toBe('下线通知'));
    act(() => {
      toast.warning('网络异常');
    });
    await waitFor(() => expect(useConfirmStore.getState().current?.title).toBe('下线通知'));
    act(() => useConfirmStore.getState().settle(true));
    await handled;
    expect(useLoginDialogStore.getState().open).toBe(true);
    useLoginDialogStore.getState().close();
  });

  it('tells the other tabs, which log out and explain too, leaving the ticket to the tab that met it', async () => {
    // The tab that met the 452 marks it before it logs out.
    const metHere = handleLoggedInElsewhere(new QueryClient());
    await waitFor(() => expect(useConfirmStore.getState().current?.title).toBe('下线通知'));
    const mark = localStorage.getItem(ENDED_ELSEWHERE_KEY);
    expect(mark).not.toBeNull();
    act(() => useConfirmStore.getState().settle(true));
    await metHere;
    useLoginDialogStore.getState().close();
    images.length = 0;

    // Another tab hears the mark, then the logout; by then the server may already have answered
    // it as nobody's, so it explains whatever its session shows.
    const otherTab = new QueryClient();
    otherTab.setQueryData(sessionKeys.user, null);
    installSession(otherTab);
    window.dispatchEvent(new StorageEvent('storage', { key: ENDED_ELSEWHERE_KEY, newValue: mark }));
    window.dispatchEvent(new StorageEvent('storage', { key: LOGIN_USER_KEY, newValue: null }));
    await waitFor(() => expect(useConfirmStore.getState().current?.title).toBe('下线通知'));
    expect(images).toEqual([]);
    expect(otherTab.getQueryData(sessionKeys.user)).toBeNull();
    act(() => useConfirmStore.getState().settle(true));
    await waitFor(() => expect(useLoginDialogStore.getState().open).toBe(true));
    useLoginDialogStore.getState().close();

    // The next login forgets it.
    rememberLoginUser({ uid: 2 } as never);
    expect(localStorage.getItem(ENDED_ELSEWHERE_KEY)).toBeNull();
    rememberLoginUser(null);
  });

  it("uses the app's own login-mutex alert inside the native app, which ends its ticket itself", async () => {
    const loginMutexAlert = vi.fn();
    window.GeekTimeApp = { loginMutexAlert };
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(`${ANDROID} GeekTime/2.8.3`);
    await handleLoggedInElsewhere(new QueryClient());
    expect(loginMutexAlert).toHaveBeenCalledOnce();
    expect(useConfirmStore.getState().current).toBeNull();
    expect(images).toEqual([]);
    vi.restoreAllMocks();
  });
});

describe('a logout the server has not heard yet', () => {
  const envelope = (data: unknown, code = 0) =>
    new Response(JSON.stringify(code === 0 ? { code: 0, data } : { code: -1, error: { code, msg: 'x' } }), { headers: { 'content-type': 'application/json' } });

  it('sends nothing else until the logout is answered: offline, a call fails as offline without being sent', async () => {
    markLogoutPending({});
    const fetchMock = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetchMock);
    const failed = await request(endpoints.channelPosts, { tab: 'all', index: 0, size: 20 }).catch((error: unknown) => error);
    expect(isApiError(failed) && failed.kind).toBe('network');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([endpoints.logout.path]);
    expect(pendingLogout()).toEqual({});
  });

  it('ends the ticket first once the network is back, then the call goes as a visitor\'s', async () => {
    markLogoutPending({});
    const fetchMock = vi.fn().mockResolvedValueOnce(envelope(null, -2000)).mockResolvedValueOnce(envelope({ list: [] }));
    vi.stubGlobal('fetch', fetchMock);
    await request(endpoints.recommendChannelList, {});
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([endpoints.logout.path, endpoints.recommendChannelList.path]);
    expect(pendingLogout()).toBeNull();
  });

  it('ends a header client\'s ticket with its own headers, and tries again after a server error', async () => {
    markLogoutPending({ ticket: 'mini-ticket', 'device-id': 'mini-device' });
    const fetchMock = vi.fn().mockResolvedValueOnce(new Response('unavailable', { status: 503 })).mockResolvedValue(envelope({}));
    vi.stubGlobal('fetch', fetchMock);
    await expect(request(endpoints.recommendChannelList, {})).rejects.toMatchObject({ kind: 'network' });
    await request(endpoints.recommendChannelList, {});
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([endpoints.logout.path, endpoints.logout.path, endpoints.recommendChannelList.path]);
    expect(fetchMock.mock.calls[1]![1].headers).toMatchObject({ ticket: 'mini-ticket', 'device-id': 'mini-device' });
    expect(pendingLogout()).toBeNull();
  });

  it('is marked by a 452 before anything else, so the ended ticket goes with nothing more', async () => {
    vi.stubGlobal(
      'Image',
      class {
        onload: (() => void) | null = null;
        set src(_value: string) {
          queueMicrotask(() => this.onload?.());
        }
      },
    );
    const handled = handleLoggedInElsewhere(new QueryClient());
    await waitFor(() => expect(useConfirmStore.getState().current?.title).toBe('下线通知'));
    expect(pendingLogout()).toEqual({});
    act(() => useConfirmStore.getState().settle(true));
    await handled;
    useLoginDialogStore.getState().close();
  });
});

describe('the phone login popup', () => {
  function answer(data: unknown, code = 0) {
    return new Response(JSON.stringify(code === 0 ? { code: 0, data } : { code: -1, error: { code, msg: 'x' } }), {
      headers: { 'content-type': 'application/json' },
    });
  }

  /** Opens the popup, whose code loads on first open. */
  async function renderDialog() {
    const queryClient = new QueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <LoginDialog />
      </QueryClientProvider>,
    );
    act(() => useLoginDialogStore.getState().openLogin());
    await screen.findByRole('dialog', { name: '手机号登录' });
    return queryClient;
  }

  it('counts down 60 s after sending a code, shows a wrong code in words, then logs in', async () => {
    const user = { uid: 1, ucode: 'u', nick: '小明', avatar: '', cellphone: '138****0000', ctime: 1, student: 0, usertype: 1 };
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(answer({ expires_in: 300 }))
      .mockResolvedValueOnce(answer(null, -3007))
      .mockResolvedValueOnce(answer({ ...user, ticket: 'secret', device_id: 'dev' }));
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = await renderDialog();

    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '138 0000 0000' } });
    expect(screen.getByPlaceholderText<HTMLInputElement>('请输入手机号').value).toBe('13800000000');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await screen.findByRole('button', { name: '60 秒后重发' });
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body as string)).toEqual({ cellphone: '13800000000' });

    fireEvent.change(screen.getByPlaceholderText('6 位验证码'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('验证码错误'));

    fireEvent.change(screen.getByPlaceholderText('6 位验证码'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(useLoginDialogStore.getState().open).toBe(false));
    expect(queryClient.getQueryData(sessionKeys.user)).toEqual(user);
    // On the web the ticket lives in the httpOnly cookie, not in storage.
    expect(readStoredLogin()).toEqual({ ticket: '', deviceId: 'dev' });
    const loginBody = JSON.parse(fetchMock.mock.calls[2]![1].body as string) as Record<string, unknown>;
    expect(loginBody).toMatchObject({ cellphone: '13800000000', code: '123456', device_kind: 'pc' });
    // A browser does not ask for the ticket: it sends no Device-Id.
    expect(fetchMock.mock.calls[2]![1].headers).not.toHaveProperty('device-id');
  });

  it('asks for the ticket inside the mini-program, by sending its Device-Id, and keeps it to send as a header', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(`${ANDROID} MicroMessenger/8.0 miniProgram`);
    const user = { uid: 1, ucode: 'u', nick: '小明', avatar: '', cellphone: '138****0000', ctime: 1, student: 0, usertype: 1 };
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(answer({ expires_in: 300 }))
      .mockResolvedValueOnce(answer({ ...user, ticket: 'mini-program-ticket', device_id: 'dev' }));
    vi.stubGlobal('fetch', fetchMock);
    await renderDialog();
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800000000' } });
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await screen.findByRole('button', { name: '60 秒后重发' });
    fireEvent.change(screen.getByPlaceholderText('6 位验证码'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(useLoginDialogStore.getState().open).toBe(false));
    const headers = fetchMock.mock.calls[1]![1].headers as Record<string, string>;
    const body = JSON.parse(fetchMock.mock.calls[1]![1].body as string) as { device_id: string };
    expect(headers['device-id']).toBe(body.device_id);
    expect(readStoredLogin()).toEqual({ ticket: 'mini-program-ticket', deviceId: 'dev' });
    vi.restoreAllMocks();
  });

  it('closes on a click on the backdrop, but not when a drag that began in the form ends there', async () => {
    await renderDialog();
    const backdrop = screen.getByRole('dialog');
    fireEvent.pointerDown(screen.getByPlaceholderText('请输入手机号'));
    fireEvent.click(backdrop);
    expect(useLoginDialogStore.getState().open).toBe(true);
    fireEvent.pointerDown(backdrop);
    fireEvent.click(backdrop);
    expect(useLoginDialogStore.getState().open).toBe(false);
  });

  it('closes when the page is left', async () => {
    await renderDialog();
    act(() => closeLoginDialog());
    expect(useLoginDialogStore.getState().open).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
