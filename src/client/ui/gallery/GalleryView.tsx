import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { DOUBLE_TAP_MS } from '#shared/constants.ts';
import { useLayoutStore } from '../../platform/layout-store.ts';
import { IconChevronRight } from '../icons-secondary.tsx';
import { IconChevronLeft, IconClose } from '../icons.tsx';
import { ModalDialog } from '../overlay/ModalDialog.tsx';
import { clampZoom, MAX_ZOOM, useGalleryStore } from './gallery-store.ts';
import './gallery.css';

interface View {
  scale: number;
  x: number;
  y: number;
}
const RESET: View = { scale: 1, x: 0, y: 0 };
const SWIPE_PX = 50;

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
  const [zoom, setZoom] = useState<{ key: string; view: View }>({ key: viewKey, view: RESET });
  const view = zoom.key === viewKey ? zoom.view : RESET;
  const setView = (next: View | ((v: View) => View)) =>
    setZoom((z) => {
      const current = z.key === viewKey ? z.view : RESET;
      return { key: viewKey, view: typeof next === 'function' ? next(current) : next };
    });
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{
    startX: number;
    startY: number;
    startView: View;
    startDistance: number;
    startTime: number;
    moved: boolean;
  } | null>(null);
  const lastTap = useRef(0);
  const tapTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        // Blocked at the ends: the key is swallowed, nothing wraps around.
        event.preventDefault();
        go(event.key === 'ArrowLeft' ? -1 : 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, go]);

  useEffect(() => () => clearTimeout(tapTimer.current), []);

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

  const toggleZoom = (clientX: number, clientY: number) => {
    setView((v) => {
      if (v.scale > 1) return RESET;
      const rect = rootRef.current?.getBoundingClientRect();
      const cx = rect ? clientX - rect.left - rect.width / 2 : 0;
      const cy = rect ? clientY - rect.top - rect.height / 2 : 0;
      return { scale: 2, x: -cx, y: -cy };
    });
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('button')) return;
    // A new touch (a second tap, a swipe, a pinch) is not the end of a single tap: no close.
    clearTimeout(tapTimer.current);
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    const distance =
      points.length >= 2 ? Math.hypot(points[0]!.x - points[1]!.x, points[0]!.y - points[1]!.y) : 0;
    gesture.current = {
      startX: event.clientX,
      startY: event.clientY,
      startView: view,
      startDistance: distance,
      startTime: Date.now(),
      moved: gesture.current?.moved ?? false,
    };
    if (points.length === 1) gesture.current.moved = false;
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g || !pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    if (points.length >= 2 && g.startDistance > 0) {
      const distance = Math.hypot(points[0]!.x - points[1]!.x, points[0]!.y - points[1]!.y);
      g.moved = true;
      setView({ ...g.startView, scale: clampZoom(g.startView.scale * (distance / g.startDistance)) });
      return;
    }
    const dx = event.clientX - g.startX;
    const dy = event.clientY - g.startY;
    if (Math.abs(dx) > 6 || Math.abs(dy) > 6) g.moved = true;
    if (g.startView.scale > 1) setView({ ...g.startView, x: g.startView.x + dx, y: g.startView.y + dy });
  };

  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    pointers.current.delete(event.pointerId);
    if (!g || pointers.current.size > 0) return;
    gesture.current = null;
    const dx = event.clientX - g.startX;
    if (g.moved) {
      if (g.startView.scale === 1 && view.scale === 1 && Math.abs(dx) > SWIPE_PX) go(dx < 0 ? 1 : -1);
      return;
    }
    // A tap: a second one within 300 ms zooms and is no single tap; a single tap closes on mobile,
    // a click on the backdrop closes on desktop.
    const now = Date.now();
    const onImage = (event.target as HTMLElement).tagName === 'IMG';
    if (now - lastTap.current < DOUBLE_TAP_MS) {
      clearTimeout(tapTimer.current);
      lastTap.current = 0;
      toggleZoom(event.clientX, event.clientY);
      return;
    }
    lastTap.current = now;
    if (isMobile || !onImage) {
      clearTimeout(tapTimer.current);
      tapTimer.current = setTimeout(() => {
        if (isMobile || view.scale === 1) close();
      }, DOUBLE_TAP_MS);
    }
  };

  const onWheel = (event: React.WheelEvent<HTMLDivElement>) => {
    const factor = event.deltaY < 0 ? 1.15 : 1 / 1.15;
    setView((v) => {
      const scale = clampZoom(v.scale * factor);
      return scale === 1 ? RESET : { ...v, scale };
    });
  };

  return (
    <ModalDialog className="gallery-layer" aria-label="图片查看" onDismiss={close}>
      <div
        ref={rootRef}
        className={`gallery${isMobile ? ' gallery--mobile' : ''}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={(e) => {
          pointers.current.delete(e.pointerId);
          gesture.current = null;
        }}
        onWheel={onWheel}
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
