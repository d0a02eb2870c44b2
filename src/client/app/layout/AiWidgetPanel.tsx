/** The AI promo shown whole (AiWidget.tsx places it): 打开 in a new window, moved by the arrow keys, closed for good. */
import { useLayoutEffect, type KeyboardEvent } from 'react';
import { IconSparkle } from '../../ui/icons.tsx';
import { IconClose } from '../../ui/icons-secondary.tsx';
import type { Point } from './widget-position.ts';

const KEY_STEP_PX = 16;

const STEPS: Record<string, Point> = {
  ArrowLeft: { x: -KEY_STEP_PX, y: 0 },
  ArrowRight: { x: KEY_STEP_PX, y: 0 },
  ArrowUp: { x: 0, y: -KEY_STEP_PX },
  ArrowDown: { x: 0, y: KEY_STEP_PX },
};

export default function AiWidgetPanel({
  onOpen,
  onMove,
  onClose,
  onShown,
}: {
  onOpen: () => void;
  onMove: (step: Point) => void;
  onClose: () => void;
  /** In the page (true), and gone again (false): the widget is placed by its size. */
  onShown: (shown: boolean) => void;
}) {
  useLayoutEffect(() => {
    onShown(true);
    return () => onShown(false);
  }, [onShown]);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    onMove(step);
  };
  return (
    <>
      {/* The name is the visible text (and where it opens); the keys are a description. */}
      <button type="button" className="ai-widget__body" onClick={onOpen} onKeyDown={onKeyDown} aria-describedby="ai-widget-keys">
        <span className="ai-widget__icon" aria-hidden="true">
          <IconSparkle size={22} />
        </span>
        <span className="ai-widget__text">
          <span className="ai-widget__title">AI助手</span>
          <span className="ai-widget__hint">学习路上，有问必答</span>
          <span className="visually-hidden">（新窗口打开）</span>
        </span>
      </button>
      <span id="ai-widget-keys" hidden>
        方向键可移动位置
      </span>
      <button type="button" className="ai-widget__close" aria-label="关闭AI助手" onClick={onClose}>
        <IconClose size={14} />
      </button>
    </>
  );
}
