/**
 * ui/toast/ToastHost.tsx: a toast lasts its duration on screen. The first toast of a visit waits
 * for the code of its view; its time begins once that has come, so a short toast on a slow device
 * is still seen, as one toast (one node in the live region, announced once), and then goes.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ToastHost } from '../../src/client/ui/toast/ToastHost.tsx';
import { toast, useToastStore } from '../../src/client/ui/toast/toast-store.ts';

afterEach(() => {
  cleanup();
  act(() => useToastStore.getState().close());
});

describe('the first toast of a visit', () => {
  it('shows once its view’s code has come, however short its time, and goes after it', async () => {
    render(<ToastHost />);
    const added: Node[] = [];
    new MutationObserver((records) => added.push(...records.flatMap((record) => [...record.addedNodes]))).observe(screen.getByRole('status'), {
      childList: true,
    });
    // A millisecond: far less than the view's code takes to come.
    act(() => void toast.success('代码已放进动态草稿', { duration: 0.001 }));

    await screen.findByText('代码已放进动态草稿', { selector: '.toast--with-icon .toast__message' });
    await waitFor(() => expect(useToastStore.getState().current).toBeNull());
    expect(screen.getByRole('status').textContent).toBe('');
    expect(added).toHaveLength(1);
  });
});
