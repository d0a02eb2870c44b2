import type { ReactNode } from 'react';

/**
 * A square picture of known size (no layout shift): the image, or when there is none a
 * placeholder in the same box (`<className>--placeholder`).
 */
export function Thumbnail({ src, size, className, placeholder }: { src: string; size: number; className: string; placeholder: ReactNode }) {
  const box = { width: size, height: size };
  return src ? (
    <img className={className} src={src} alt="" width={size} height={size} style={box} loading="lazy" decoding="async" />
  ) : (
    <span className={`${className} ${className}--placeholder`} style={box} aria-hidden="true">
      {placeholder}
    </span>
  );
}
