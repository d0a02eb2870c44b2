import { useRouter } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { cancel } from '../../lib/write-queue/queue.ts';
import { useOutbox, type QueuedWrite, writesOf } from '../../lib/write-queue/store.ts';
import { confirm } from '../dialog/confirm.ts';
import { ModalDialog } from '../overlay/ModalDialog.tsx';
import '../picker/picker.css';
import './outbox.css';

/**
 * The outbox for the user: a 待发送 N button (with 未发送 M when some came back), and
 * the list it opens: each write with what it is, a line of it, its state (待发送, 发送中, or
 * 未发送 with the server's message), 取消, and 编辑 where a returned write has its editor. Only
 * the logged-in user's writes (all of this device's while that is not known).
 */
export default function OutboxPanel() {
  const router = useRouter();
  const all = useOutbox((s) => s.items);
  const viewer = useOutbox((s) => s.viewer);
  const items = writesOf(all, viewer);
  const sending = useOutbox((s) => s.sending);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const waiting = items.filter((item) => item.state === 'waiting').length;
  const returned = items.length - waiting;
  const close = () => setOpen(false);

  const take = async (item: QueuedWrite) => {
    // Words would be lost: ask first. A switch (like, follow, vote) just goes back.
    const words = !item.toggle && !item.replaces;
    if (words && !(await confirm({ title: '取消发送', content: `这条${item.label}还没有发出，取消后将不再发送。`, okText: '取消发送', cancelText: '保留', danger: true }))) return;
    await cancel(item.id);
  };
  const edit = (item: QueuedWrite) => {
    const url = new URL(item.edit!, window.location.href);
    close();
    void router.navigate({ href: `${url.pathname}${url.search}` });
  };

  return (
    <>
      <button type="button" className="outbox-fab" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        待发送 {waiting}
        {returned > 0 ? <span className="outbox-fab__returned"> · 未发送 {returned}</span> : null}
      </button>
      {open ? (
        <ModalDialog className="picker-layer" aria-labelledby={titleId} onDismiss={close} onBackdrop={close}>
          <div className="picker">
            <h2 id={titleId} className="picker__title">
              待发送 {waiting}
            </h2>
            <ul className="outbox-sheet__list">
              {items.map((item) => (
                <li key={item.id} className="outbox-sheet__item">
                  <span className="outbox-sheet__label">{item.label}</span>
                  <span className="outbox-sheet__text">{item.text}</span>
                  {item.state === 'returned' ? (
                    <span className="outbox-badge outbox-badge--returned">未发送：{item.error}</span>
                  ) : (
                    <span className="outbox-badge">{item.id === sending ? '发送中…' : '待发送'}</span>
                  )}
                  <span className="outbox-actions">
                    {item.state === 'returned' && item.edit ? (
                      <button type="button" className="button button--text button--small" onClick={() => edit(item)}>
                        编辑
                      </button>
                    ) : null}
                    {item.id === sending ? null : (
                      <button type="button" className="button button--text button--small" onClick={() => void take(item)}>
                        取消
                      </button>
                    )}
                  </span>
                </li>
              ))}
            </ul>
            <button type="button" className="picker__cancel" onClick={close}>
              关闭
            </button>
          </div>
        </ModalDialog>
      ) : null}
    </>
  );
}
