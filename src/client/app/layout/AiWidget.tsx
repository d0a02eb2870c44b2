import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent } from 'react';
import { useLayoutStore } from '../../platform/layout-store.ts';
import { IconSparkle } from '../../ui/icons.tsx';
import { LazyLayer, lazyComponent } from '../../ui/LazyLayer.tsx';
import { openAiAssistant, useAiWidgetStore } from './ai-widget-store.ts';
import {
  clampPosition,
  clearHeight,
  DOCK_VISIBLE_PX,
  dockedPosition,
  initialPosition,
  OUT_HEIGHT_BOUND,
  PC_DOCK_VISIBLE_PX,
  roomBesideContent,
  type Point,
  type Rect,
  type Size,
} from './widget-position.ts';
import './ai-widget.css';

const DRAG_THRESHOLD_PX = 5;

// The whole promo shows beside a wide page, or brought out from the edge: on most windows it
// waits docked, so its code comes with its first showing.
const AiWidgetPanel = lazyComponent(() => import('./AiWidgetPanel.tsx'));

/** The window less its scroll bar, which a fixed element cannot show through. */
function viewport() {
  return { width: document.documentElement.clientWidth || window.innerWidth, height: window.innerHeight };
}

/** What a reader may press on screen now (the widget's own controls aside), as boxes. */
function controlBoxes(widget: HTMLElement | null): Rect[] {
  const boxes: Rect[] = [];
  for (const control of document.querySelectorAll('a[href], button, input, textarea, select, [role="button"], [tabindex]:not([tabindex="-1"])')) {
    if (widget?.contains(control)) continue;
    const box = control.getBoundingClientRect();
    if (box.width > 1 && box.height > 1 && box.bottom > 0 && box.top < window.innerHeight) boxes.push(box);
  }
  return boxes;
}

/** The height where the whole widget, at the right edge, lies over no control; null when there is none. */
function clearOutHeight(widget: HTMLElement | null, preferredY: number, size: Size): number | null {
  const view = viewport();
  return clearHeight(clampPosition({ x: Infinity, y: 0 }, size, view).x, preferredY, size, view, controlBoxes(widget));
}

/**
 * The floating AI assistant promo. It never covers the page's controls: on a PC window with room
 * beside the 1200 px page it starts there, 230 px from the right and 110 + 200 px from the bottom;
 * drag it anywhere with mouse, pen or touch (pointer events), or move it with the arrow keys; a
 * click without dragging opens the AI page in a new window; the close button hides it for good. On
 * a phone, and on a window without that room, it waits docked at the right edge, mostly hidden, at
 * the same height (a drag moves it up and down): a tap brings it out whole, at the nearest height
 * where it lies over no button, link or field (a window with no such place opens the AI page at
 * once), and it goes back when the page scrolls or is tapped elsewhere.
 */
export default function AiWidget() {
  const hidden = useAiWidgetStore((s) => s.hidden);
  const close = useAiWidgetStore((s) => s.close);
  const isMobile = useLayoutStore((s) => s.isMobile);
  const rootRef = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<Point | null>(null);
  const [out, setOut] = useState(false);
  const [roomy, setRoomy] = useState(() => roomBesideContent(viewport().width));
  // The panel's size is what places it: placed once its code is in.
  const [panelShown, setPanelShown] = useState(false);
  const docks = isMobile || !roomy;
  const docked = docks && !out;
  const drag = useRef<{ id: number; startX: number; startY: number; origin: Point; moved: boolean } | null>(null);
  const suppressClick = useRef(false);

  const size = () => {
    const el = rootRef.current;
    return { width: el?.offsetWidth ?? 200, height: el?.offsetHeight ?? 80 };
  };
  /** Where the widget may be: anywhere beside a wide page, else the right edge (docked or out). */
  const place = (p: Point): Point => {
    if (!docks) return clampPosition(p, size(), viewport());
    if (docked) return dockedPosition(p.y, size(), viewport(), isMobile ? DOCK_VISIBLE_PX : PC_DOCK_VISIBLE_PX);
    return clampPosition({ x: Infinity, y: clearOutHeight(rootRef.current, p.y, size()) ?? p.y }, size(), viewport());
  };
  /** The dock's tab tapped: out where it covers nothing, or, with no such place, straight to the AI page. */
  const bringOut = () => {
    const y = clearOutHeight(rootRef.current, position?.y ?? 0, { width: size().width, height: OUT_HEIGHT_BOUND });
    if (y === null) {
      openAiAssistant();
      return;
    }
    setPosition((p) => (p ? { ...p, y } : p));
    setOut(true);
  };

  useLayoutEffect(() => {
    if (hidden || (!docked && !panelShown)) return;
    const root = rootRef.current;
    if (!position && root && typeof ResizeObserver === 'function') {
      // The first placement waits for the browser's own layout (the widget stays invisible until
      // then): measured here, it forced a layout of the whole page in the middle of the first
      // render, on every start.
      const observer = new ResizeObserver(() => {
        observer.disconnect();
        setPosition((p) => place(p ?? initialPosition(size(), viewport())));
      });
      observer.observe(root);
      return () => observer.disconnect();
    }
    // Placed again (brought out, docked, the layout changed): before the next paint, a layout effect's job.
    setPosition((p) => place(p ?? initialPosition(size(), viewport())));
    // place() reads the layout and the docked state, which are the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hidden, docks, docked, panelShown]);

  useEffect(() => {
    if (hidden) return;
    const onResize = () => {
      setRoomy(roomBesideContent(viewport().width));
      setPosition((p) => (p ? place(p) : p));
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hidden, docks, docked]);

  useEffect(() => {
    if (!out) return;
    // Brought out from the edge: back there when the reader scrolls on or taps elsewhere.
    const back = (event: Event) => {
      if (event.type === 'pointerdown' && rootRef.current?.contains(event.target as Node)) return;
      setOut(false);
    };
    window.addEventListener('scroll', back, { passive: true });
    window.addEventListener('pointerdown', back);
    return () => {
      window.removeEventListener('scroll', back);
      window.removeEventListener('pointerdown', back);
    };
  }, [out]);

  if (hidden) return null;

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || !position) return;
    if ((event.target as HTMLElement).closest('.ai-widget__close')) return;
    drag.current = { id: event.pointerId, startX: event.clientX, startY: event.clientY, origin: position, moved: false };
    suppressClick.current = false;
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    const dx = event.clientX - d.startX;
    const dy = event.clientY - d.startY;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    if (!d.moved) {
      d.moved = true;
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    setPosition(place({ x: d.origin.x + dx, y: d.origin.y + dy }));
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    drag.current = null;
    if (d.moved) {
      suppressClick.current = true;
      if (event.currentTarget.hasPointerCapture(event.pointerId)) {
        event.currentTarget.releasePointerCapture(event.pointerId);
      }
    }
  };
  const afterDrag = () => {
    const dragged = suppressClick.current;
    suppressClick.current = false;
    return dragged;
  };
  const onOpen = () => {
    if (!afterDrag()) openAiAssistant();
  };
  const moveBy = (step: Point) => {
    if (position) setPosition(place({ x: position.x + step.x, y: position.y + step.y }));
  };

  return (
    <div
      ref={rootRef}
      className={`ai-widget${docked ? ' ai-widget--docked' : ''}`}
      style={position ? { transform: `translate3d(${position.x}px, ${position.y}px, 0)` } : { visibility: 'hidden' }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      data-testid="ai-widget"
    >
      {docked ? (
        <button type="button" className="ai-widget__tab" aria-expanded="false" onClick={() => afterDrag() || bringOut()}>
          <span className="ai-widget__icon" aria-hidden="true">
            <IconSparkle size={18} />
          </span>
          <span className="visually-hidden">AI助手</span>
        </button>
      ) : (
        <LazyLayer onError={out ? () => setOut(false) : undefined}>
          <AiWidgetPanel onOpen={onOpen} onMove={moveBy} onClose={close} onShown={setPanelShown} />
        </LazyLayer>
      )}
    </div>
  );
}
