import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { IconClose, IconSparkle } from '../../ui/icons.tsx';
import { openAiAssistant, useAiWidgetStore } from './ai-widget-store.ts';
import { clampPosition, initialPosition, type Point } from './widget-position.ts';
import './ai-widget.css';

const DRAG_THRESHOLD_PX = 5;
const KEY_STEP_PX = 16;

function viewport() {
  return { width: window.innerWidth, height: window.innerHeight };
}

/**
 * The floating AI assistant promo (SPEC.md sections 1 and 4). Drag it anywhere with mouse,
 * pen or touch (pointer events); a click without dragging opens the AI page in a new
 * window; arrow keys move it when focused; the close button hides it for good.
 */
export default function AiWidget() {
  const hidden = useAiWidgetStore((s) => s.hidden);
  const close = useAiWidgetStore((s) => s.close);
  const rootRef = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<Point | null>(null);
  const drag = useRef<{ id: number; startX: number; startY: number; origin: Point; moved: boolean } | null>(null);
  const suppressClick = useRef(false);

  const size = () => {
    const el = rootRef.current;
    return { width: el?.offsetWidth ?? 200, height: el?.offsetHeight ?? 80 };
  };

  useLayoutEffect(() => {
    if (hidden) return;
    // Placing the widget needs its measured size, before the first paint: a layout effect's job.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setPosition((p) => (p ? clampPosition(p, size(), viewport()) : initialPosition(size(), viewport())));
  }, [hidden]);

  useEffect(() => {
    if (hidden) return;
    const onResize = () => setPosition((p) => (p ? clampPosition(p, size(), viewport()) : p));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [hidden]);

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
    setPosition(clampPosition({ x: d.origin.x + dx, y: d.origin.y + dy }, size(), viewport()));
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
  const onOpen = () => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    openAiAssistant();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const delta: Record<string, Point> = {
      ArrowLeft: { x: -KEY_STEP_PX, y: 0 },
      ArrowRight: { x: KEY_STEP_PX, y: 0 },
      ArrowUp: { x: 0, y: -KEY_STEP_PX },
      ArrowDown: { x: 0, y: KEY_STEP_PX },
    };
    const step = delta[event.key];
    if (!step || !position) return;
    event.preventDefault();
    setPosition(clampPosition({ x: position.x + step.x, y: position.y + step.y }, size(), viewport()));
  };

  return (
    <div
      ref={rootRef}
      className="ai-widget"
      style={position ? { transform: `translate3d(${position.x}px, ${position.y}px, 0)` } : { visibility: 'hidden' }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      data-testid="ai-widget"
    >
      <button
        type="button"
        className="ai-widget__body"
        onClick={onOpen}
        onKeyDown={onKeyDown}
        aria-label="打开AI助手（新窗口），方向键可移动位置"
      >
        <span className="ai-widget__icon" aria-hidden="true">
          <IconSparkle size={22} />
        </span>
        <span className="ai-widget__text" aria-hidden="true">
          <span className="ai-widget__title">AI助手</span>
          <span className="ai-widget__hint">学习路上，有问必答</span>
        </span>
      </button>
      <button type="button" className="ai-widget__close" aria-label="关闭AI助手" onClick={close}>
        <IconClose size={14} />
      </button>
    </div>
  );
}
