import { useEffect, useRef } from 'react';
import { useLayoutStore } from '../../platform/layout-store.ts';
import { IconChevronRight, IconClose } from '../icons-secondary.tsx';
import { IconChevronLeft } from '../icons.tsx';
import { ModalDialog } from '../overlay/ModalDialog.tsx';
import { MAX_ZOOM, useGalleryStore } from './gallery-store.ts';
import { useImageView } from './image-view.ts';
import { useGalleryGestures } from './use-gallery-gestures.ts';
import './gallery.css';

/**
 * Full-screen gallery, loaded when first opened. Desktop: arrow buttons and keys, click outside closes, wheel and
 * double click zoom. Mobile (below 860 px): swipe between images, tap closes, pinch and
 * double tap zoom. Zoom is capped at 3x; a zoomed image pans.
 */
export default function GalleryView() {
  const { open, items, index, close, go } = useGalleryStore();
  const isMobile = useLayoutStore((s) => s.isMobile);
  const rootRef = useRef<HTMLDivElement>(null);
  // The zoom belongs to one image: a new image (or a new opening) starts unzoomed.
  const viewKey = `${open ? 1 : 0}:${index}`;
  const [view, setView] = useImageView(viewKey);
  const gestures = useGalleryGestures({ view, setView, isMobile, rootRef, go, close });
  useArrowKeys(open, go);

  // Preload the neighbours so paging feels instant.
  useEffect(() => {
    if (!open) return;
    for (const neighbour of [items[index - 1], items[index + 1]]) {
      if (neighbour) new Image().src = neighbour.src;
    }
  }, [open, items, index]);

  if (!open) return null;
  const item = items[index];
  if (!item) return null;
  const atFirst = index === 0;
  const atLast = index === items.length - 1;

  return (
    <ModalDialog className="gallery-layer" aria-label="图片查看" onDismiss={close}>
      <div
        ref={rootRef}
        className={`gallery${isMobile ? ' gallery--mobile' : ''}`}
        {...gestures}
      >
        <div className="gallery__stage">
          <img
            key={item.src}
            className="gallery__image"
            src={item.src}
            width={item.width}
            height={item.height}
            alt={item.alt ?? ''}
            draggable={false}
            style={{
              aspectRatio: `${item.width} / ${item.height}`,
              transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
              cursor: view.scale > 1 ? 'grab' : isMobile ? 'default' : 'zoom-in',
            }}
            data-zoom={view.scale.toFixed(2)}
          />
        </div>
        <button type="button" className="gallery__close" aria-label="关闭图片" onClick={close}>
          <IconClose size={24} />
        </button>
        {!isMobile && items.length > 1 ? (
          <>
            <button
              type="button"
              className="gallery__nav gallery__nav--prev"
              aria-label="上一张"
              disabled={atFirst}
              onClick={() => go(-1)}
            >
              <IconChevronLeft size={28} />
            </button>
            <button
              type="button"
              className="gallery__nav gallery__nav--next"
              aria-label="下一张"
              disabled={atLast}
              onClick={() => go(1)}
            >
              <IconChevronRight size={28} />
            </button>
          </>
        ) : null}
        <p className="visually-hidden" aria-live="polite">
          {view.scale > 1 ? `已放大 ${view.scale.toFixed(1)} 倍，最大 ${MAX_ZOOM} 倍` : ''}
        </p>
      </div>
    </ModalDialog>
  );
}

/** Left and right arrows page while the gallery is open; blocked at the ends, the key is swallowed and nothing wraps around. */
function useArrowKeys(open: boolean, go: (delta: number) => unknown) {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        go(event.key === 'ArrowLeft' ? -1 : 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, go]);
}
