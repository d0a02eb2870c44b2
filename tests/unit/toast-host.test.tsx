/**
 * ui/toast/ToastHost.tsx: the first toast of a visit shows its words at once, in the live region,
 * while the code of its full view still loads; the view (with its icon) follows. A toast lasts a
 * moment from when it is asked for: one that waited for its code could end unseen on a slow device.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ToastHost } from '../../src/client/ui/toast/ToastHost.tsx';
import { toast, useToastStore } from '../../src/client/ui/toast/toast-store.ts';

afterEach(() => {
  cleanup();
  act(() => useToastStore.getState().close());
});

describe('the first toast of a visit', () => {
  it('shows its words in the same commit, before its view’s code has come, then the view with its icon', async () => {
    const { container } = render(<ToastHost />);
    act(() => void toast.success('代码已放进动态草稿'));
    // No wait: what the commit of the toast wrote, the view's code not loaded yet.
    expect(screen.getByRole('status').textContent).toBe('代码已放进动态草稿');
    expect(container.querySelector('.toast__icon')).toBeNull();

    await screen.findByText('代码已放进动态草稿', { selector: '.toast--with-icon .toast__message' });
    expect(screen.getByRole('status').querySelectorAll('.toast')).toHaveLength(1);
  });
});
