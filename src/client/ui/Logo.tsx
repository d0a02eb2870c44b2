/** The community mark: an orange rounded square with an open book. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="logo-mark">
      <rect width="32" height="32" rx="8" fill="var(--color-brand)" />
      <path
        d="M8 10.5c2.7-.9 5.4-.6 8 1 2.6-1.6 5.3-1.9 8-1v11c-2.7-.9-5.4-.6-8 1-2.6-1.6-5.3-1.9-8-1z"
        fill="none"
        stroke="#fff"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <path d="M16 11.5v11" stroke="#fff" strokeWidth="1.8" />
    </svg>
  );
}
