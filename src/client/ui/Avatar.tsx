/** A round avatar with known size (no layout shift); falls back to the nick's first character. */
export function Avatar({ src, nick, size = 40 }: { src: string; nick: string; size?: number }) {
  const initial = Array.from(nick.trim())[0] ?? '?';
  return (
    <span className="avatar" style={{ width: size, height: size, fontSize: Math.round(size * 0.42) }}>
      {src ? (
        <img src={src} alt="" width={size} height={size} loading="lazy" decoding="async" />
      ) : (
        <span aria-hidden="true">{initial}</span>
      )}
    </span>
  );
}
