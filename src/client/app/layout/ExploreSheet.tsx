/**
 * Mobile: every item of the PC sidebar in a sheet from the 发现 tab (全部, 关注 open to each
 * followed channel, 精华, the explore items, external ones in a new window) and the channel
 * directory. It closes when the page changes (a toggle of 关注 is no page change).
 */
import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import { IconChevronRight, IconClose } from '../../ui/icons-secondary.tsx';
import { ModalDialog } from '../../ui/overlay/ModalDialog.tsx';
import './explore-sheet.css';

export default function ExploreSheet({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const href = useRouterState({ select: (state) => state.location.href });
  const opened = useRef(href);
  useEffect(() => {
    if (href !== opened.current) onClose();
  }, [href, onClose]);

  return (
    <ModalDialog className="picker-layer" aria-labelledby="explore-sheet-title" onDismiss={onClose} onBackdrop={onClose}>
      <div className="picker explore-sheet">
        <div className="explore-sheet__head">
          <h2 id="explore-sheet-title" className="explore-sheet__title">
            发现
          </h2>
          <button type="button" className="explore-sheet__close" aria-label="关闭" onClick={onClose}>
            <IconClose size={20} />
          </button>
        </div>
        <div className="explore-sheet__body">
          {children}
          <Link to="/invite/channelList" className="explore-sheet__directory">
            <span>全部频道</span>
            <IconChevronRight size={18} />
          </Link>
        </div>
      </div>
    </ModalDialog>
  );
}
