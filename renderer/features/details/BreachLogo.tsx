import { useEffect } from 'react';
import { useBreachMedia } from '../../state/breachMedia.ts';

/**
 * A breach's logo from the core's cache (a `data:` URL: nothing is loaded from another
 * origin), or a drawn fallback — the title's initials on a colour of its own — while it loads
 * and whenever the logo cannot be had.
 */
export function BreachLogo({ id, title, size = 48 }: { id: string; title: string; size?: number }) {
  const dataUrl = useBreachMedia((state) => state.logos[id]);
  const loadLogo = useBreachMedia((state) => state.loadLogo);
  useEffect(() => {
    // No logo (or none yet): the drawn fallback stays.
    void loadLogo(id);
  }, [id, loadLogo]);
  if (dataUrl) return <img className="breach-logo" src={dataUrl} alt={`${title} logo`} width={size} height={size} />;
  return (
    <span className={`breach-logo breach-logo-fallback hue-${hueOf(id)}`} role="img" aria-label={`${title} logo (not available)`} data-size={size}>
      {initialsOf(title)}
    </span>
  );
}

export function initialsOf(title: string): string {
  const words = title.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return (words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}

/** One of twelve hues (classes in CSS: the CSP allows no inline styles). */
function hueOf(id: string): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 12;
}
