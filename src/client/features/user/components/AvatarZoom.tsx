import type { ReactNode } from 'react';
import { Controlled } from 'react-medium-image-zoom';
import 'react-medium-image-zoom/dist/styles.css';

/** react-medium-image-zoom around an avatar; its code and styles load with the first zoom. */
export default function AvatarZoom({
  isZoomed,
  onZoomChange,
  children,
}: {
  isZoomed: boolean;
  onZoomChange: (zoomed: boolean) => void;
  children: ReactNode;
}) {
  return (
    <Controlled
      isZoomed={isZoomed}
      onZoomChange={onZoomChange}
      a11yNameButtonZoom="查看头像大图"
      a11yNameButtonUnzoom="收起头像"
      zoomMargin={48}
      wrapElement="span"
    >
      {children}
    </Controlled>
  );
}
