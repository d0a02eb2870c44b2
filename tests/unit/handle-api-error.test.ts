// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { ApiError } from '../../src/client/lib/http.ts';
import {
  handleApiError,
  resolveApiErrorAction,
  setApiErrorActions,
} from '../../src/client/app/handle-api-error.ts';
import { toast, useToastStore } from '../../src/client/ui/toast/toast-store.ts';

const err = (code: number, kind: ApiError['kind'], msg = 'x', path = '/serv/v1/post/detail', status = 200) =>
  new ApiError({ code, kind, msg, status, path });

describe('handleApiError', () => {
  afterEach(() => toast.close());

  it('maps errors to actions through the catalogue', () => {
    expect(resolveApiErrorAction(err(-10086, 'timeout'))).toBe('ignore');
    expect(resolveApiErrorAction(err(-1001, 'business'))).toBe('login');
    expect(resolveApiErrorAction(err(-2000, 'business'))).toBe('login');
    expect(resolveApiErrorAction(err(-2000, 'logged-in-elsewhere', '下线通知', '/x', 452))).toBe('loggedInElsewhere');
    expect(resolveApiErrorAction(err(-2902, 'business'))).toBe('toast');
    expect(resolveApiErrorAction(err(-10086, 'network'))).toBe('toast');
    expect(resolveApiErrorAction(new Error('boom'))).toBe('toast');
    expect(resolveApiErrorAction(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe('ignore');
  });

  it('never starts the login flow for the user auth call', () => {
    expect(resolveApiErrorAction(err(-2000, 'business', '请先登录', api.auth.path))).toBe('ignore');
  });

  it('shows an error toast with the ApiError message', () => {
    handleApiError(err(-2902, 'business', '反馈内容请不要超过 500 字'), { kind: 'mutation', silent: false });
    expect(useToastStore.getState().current).toMatchObject({ type: 'error', message: '反馈内容请不要超过 500 字' });
  });

  it('leaves failed reads to their inline error state, but still runs the login flow for them', () => {
    expect(handleApiError(err(-1005, 'business'), { kind: 'query' })).toBe('ignore');
    expect(useToastStore.getState().current).toBeNull();
    expect(resolveApiErrorAction(err(-2000, 'business'))).toBe('login');
    expect(handleApiError(err(-2000, 'business'), { kind: 'query' })).toBe('login');
  });

  it('stays quiet for timeouts and silent queries', () => {
    handleApiError(err(-10086, 'timeout'), { kind: 'query', silent: false });
    handleApiError(err(-1002, 'business'), { kind: 'query', silent: true });
    expect(useToastStore.getState().current).toBeNull();
  });

  it('lets the auth work replace the login and 452 actions', () => {
    const login = vi.fn();
    const elsewhere = vi.fn();
    const restore = setApiErrorActions({ login, loggedInElsewhere: elsewhere });
    handleApiError(err(-1001, 'business'));
    handleApiError(err(-2000, 'logged-in-elsewhere', '下线通知', '/x', 452));
    expect(login).toHaveBeenCalledOnce();
    expect(elsewhere).toHaveBeenCalledOnce();
    restore();
    handleApiError(err(-1001, 'business', '登录已失效，请重新登录'));
    expect(login).toHaveBeenCalledOnce();
  });
});
