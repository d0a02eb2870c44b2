import { clearRecentSearches, useRecentSearches } from '../../../entities/search/recent-searches.ts';
import '../search.css';

/** 最近搜索 on this device, newest first: one tap searches again, 清除 forgets them all. */
export function RecentSearches({ onPick }: { onPick: (q: string) => void }) {
  const items = useRecentSearches((s) => s.items);
  if (items.length === 0) return null;
  return (
    <section className="recent-searches" aria-labelledby="recent-searches-title">
      <div className="recent-searches__head">
        <h2 id="recent-searches-title" className="recent-searches__title">
          最近搜索
        </h2>
        <button type="button" className="button button--text" onClick={clearRecentSearches} aria-label="清除最近搜索">
          清除
        </button>
      </div>
      <ul className="recent-searches__list">
        {items.map((item) => (
          <li key={item}>
            <button type="button" className="recent-searches__item" onClick={() => onPick(item)}>
              {item}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
