import { useEffect, useRef, type PointerEvent as ReactPointerEvent, type RefObject, type WheelEvent } from 'react';
import { DOUBLE_TAP_MS } from '#shared/constants.ts';
import { clampZoom } from './gallery-store.ts';
import { toggledView, wheeledView, type ImageView, type SetImageView } from './image-view.ts';

const SWIPE_PX = 50;
/** A pointer that travels less than this is still a tap. */
const TAP_SLOP_PX = 6;

interface Gesture {
  startX: number;
  startY: number;
  startView: ImageView;
  startDistance: number;
  moved: boolean;
}

interface Options {
  view: ImageView;
  setView: SetImageView;
  isMobile: boolean;
  rootRef: RefObject<HTMLDivElement | null>;
  /** Pages by one image (-1 back, 1 on). */
  go: (delta: number) => unknown;
  close: () => void;
}

type Point = { x: number; y: number };
const distanceOf = (points: Point[]) =>
  points.length >= 2 ? Math.hypot(points[0]!.x - points[1]!.x, points[0]!.y - points[1]!.y) : 0;

/**
 * The gallery's pointer and wheel gestures: swipe pages, pinch and wheel zoom, a zoomed image
 * pans, a double tap toggles 2x, a single tap closes (mobile) or a click beside the image does
 * (desktop). Returns the handlers for the gallery's root element.
 */
export function useGalleryGestures({ view, setView, isMobile, rootRef, go, close }: Options) {
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture | null>(null);
  const { onTap, cancelTap } = useTap({ view, setView, isMobile, rootRef, close });

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('button')) return;
    // A new touch (a second tap, a swipe, a pinch) is not the end of a single tap: no close.
    cancelTap();
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    gesture.current = {
      startX: event.clientX,
      startY: event.clientY,
      startView: view,
      startDistance: distanceOf(points),
      moved: points.length === 1 ? false : (gesture.current?.moved ?? false),
    };
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g || !pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    if (points.length >= 2 && g.startDistance > 0) {
      g.moved = true;
      setView({ ...g.startView, scale: clampZoom(g.startView.scale * (distanceOf(points) / g.startDistance)) });
      return;
    }
    const dx = event.clientX - g.startX;
    const dy = event.clientY - g.startY;
    if (Math.abs(dx) > TAP_SLOP_PX || Math.abs(dy) > TAP_SLOP_PX) g.moved = true;
    if (g.startView.scale > 1) setView({ ...g.startView, x: g.startView.x + dx, y: g.startView.y + dy });
  };

  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    pointers.current.delete(event.pointerId);
    if (!g || pointers.current.size > 0) return;
    gesture.current = null;
    const dx = event.clientX - g.startX;
    if (!g.moved) onTap(event);
    else if (g.startView.scale === 1 && view.scale === 1 && Math.abs(dx) > SWIPE_PX) go(dx < 0 ? 1 : -1);
  };

  const onPointerCancel = (event: ReactPointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    gesture.current = null;
  };

  const onWheel = (event: WheelEvent<HTMLDivElement>) => setView((v) => wheeledView(v, event.deltaY));

  return { onPointerDown, onPointerMove, onPointerUp, onPointerCancel, onWheel };
}

/**
 * A tap that ended without moving: a second one within DOUBLE_TAP_MS zooms and is no single tap;
 * a single tap closes on mobile, a click on the backdrop closes on desktop, once the wait for a
 * second tap is over. `cancelTap` drops a pending close.
 */
function useTap({ view, setView, isMobile, rootRef, close }: Omit<Options, 'go'>) {
  const lastTap = useRef(0);
  const tapTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(tapTimer.current), []);

  const onTap = (event: ReactPointerEvent<HTMLDivElement>) => {
    const now = Date.now();
    const onImage = (event.target as HTMLElement).tagName === 'IMG';
    if (now - lastTap.current < DOUBLE_TAP_MS) {
      clearTimeout(tapTimer.current);
      lastTap.current = 0;
      const point = { x: event.clientX, y: event.clientY };
      setView((v) => toggledView(v, point, rootRef.current?.getBoundingClientRect()));
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
  return { onTap, cancelTap: () => clearTimeout(tapTimer.current) };
}
